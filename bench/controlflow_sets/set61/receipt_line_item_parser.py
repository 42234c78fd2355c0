"""Receipt OCR post-processing: line items, tax, total and merchant category.

OCR gives tokens in reading order with a coarse kind (word, price, quantity,
TOTAL keyword, TAX keyword), the parsed numeric value and the baseline y.
Tokens are grouped into lines by jumps in y; each line is then parsed: the
TOTAL line ends the useful part of the receipt, TAX lines accumulate tax,
lines without a price are headers / descriptions, and the others are items
(price divided by an optional "2x" quantity).  A bag-of-tokens classifier
predicts the merchant category; long receipts are truncated for it.

KIND X.  Constructs: 1 (if on .any() and values, ternaries), 2 (early
returns inside helpers; total reassigned in one branch only), 3 (or/not on
tensor predicates), 5 (for over the dynamic token count and a data-dependent
number of lines, lists + torch.stack), 6 (break at TOTAL, continue on
TAX / no-price lines), 7 (helpers calling helpers), 8 (branch on the dynamic
token count).
"""
import torch
import torch.nn as nn
from torch.export import Dim

KIND = "X"
CONSTRUCTS = (1, 2, 3, 5, 6, 7, 8)

WORD, PRICE, QTY, TOTAL, TAX = range(5)


class ReceiptParser(nn.Module):
    def __init__(self, vocab=500, n_categories=6, line_gap=6.0, max_tokens=48):
        super().__init__()
        self.line_gap = line_gap
        self.max_tokens = max_tokens
        self.emb = nn.EmbeddingBag(vocab, 16, mode="mean")
        self.cls = nn.Linear(16, n_categories)

    def _line_starts(self, ys):
        starts = []
        for i in range(ys.shape[0]):
            if i == 0 or (ys[i] - ys[i - 1]).abs() > self.line_gap:
                starts.append(i)
        return starts

    def _last_price(self, kinds, values):
        idx = torch.nonzero(kinds == PRICE)
        if idx.shape[0] == 0:
            return torch.zeros(())
        return values[idx[-1, 0]]

    def _quantity(self, kinds, values):
        idx = torch.nonzero(kinds == QTY)
        return values[idx[0, 0]] if idx.shape[0] > 0 else torch.tensor(1.0)

    def _parse_item(self, kinds, values):
        price = self._last_price(kinds, values)
        qty = self._quantity(kinds, values)
        return price, price / qty

    def forward(self, token_ids, kinds, values, ys):
        # token_ids/kinds: (L,) long; values/ys: (L,) float, tokens in reading order
        starts = self._line_starts(ys)
        ends = starts[1:] + [ys.shape[0]]
        line_totals, unit_prices = [], []
        tax = torch.zeros(())
        total = torch.tensor(-1.0)
        for s, e in zip(starts, ends):
            k, v = kinds[s:e], values[s:e]
            if (k == TOTAL).any():
                total = self._last_price(k, v)
                break  # payment, change and footer follow
            if (k == TAX).any():
                tax = tax + self._last_price(k, v)
                continue
            if not (k == PRICE).any():
                continue  # header, address or a wrapped description
            price, unit = self._parse_item(k, v)
            line_totals.append(price)
            unit_prices.append(unit)

        subtotal = torch.stack(line_totals).sum() if line_totals else torch.zeros(())
        if total < 0:
            total = subtotal + tax  # receipt cut off before the TOTAL line
        mismatch = (subtotal + tax - total).abs() > 0.011

        ids = token_ids[:self.max_tokens] if token_ids.shape[0] > self.max_tokens else token_ids
        category = torch.softmax(self.cls(self.emb(ids.unsqueeze(0))), dim=-1).squeeze(0)
        units = torch.stack(unit_prices) if unit_prices else torch.zeros(0)
        return units, total, tax, mismatch, category


def model():
    torch.manual_seed(61019)
    return ReceiptParser().eval()


def make_receipt(lines, seed=0):
    """lines: list of lists of (kind, value) tokens."""
    g = torch.Generator().manual_seed(seed)
    kinds, values, ys = [], [], []
    for li, toks in enumerate(lines):
        for k, v in toks:
            kinds.append(k)
            values.append(v)
            ys.append(20.0 + 14.0 * li)
    n = len(kinds)
    ids = torch.randint(0, 500, (n,), generator=g)
    ys_t = torch.tensor(ys) + torch.linspace(0.0, 1.5, n)  # slight page skew within tolerance
    return ids, torch.tensor(kinds), torch.tensor(values), ys_t


W = (WORD, 0.0)


def example_inputs():
    return make_receipt([
        [W, W],                               # store name
        [W, W, W],                            # address
        [W, (PRICE, 3.49)],                   # MILK 3.49
        [(QTY, 2.0), W, (PRICE, 5.98)],       # 2x BREAD 5.98
        [W, (PRICE, 1.25)],                   # BANANAS 1.25
        [(TAX, 0.0), (PRICE, 0.86)],          # TAX 0.86
        [(TOTAL, 0.0), (PRICE, 11.58)],       # TOTAL 11.58
        [W, (PRICE, 20.00)],                  # CASH 20.00 (after TOTAL, ignored)
    ], seed=1)


def dynamic_shapes():
    n = Dim("tokens", min=2, max=1024)
    return ({0: n}, {0: n}, {0: n}, {0: n})


def verify_inputs():
    # long receipt (> 48 tokens): 20 items with long descriptions, totals disagree
    long_lines = [[W, W, W]]
    for i in range(20):
        long_lines.append([W, W, (PRICE, 1.0 + i)])
    long_lines.append([(TOTAL, 0.0), (PRICE, 100.0)])
    return [
        # headers skipped, quantity item, tax line, TOTAL -> break, totals agree
        example_inputs(),
        # receipt torn off before TOTAL: total = subtotal + tax; no quantity tokens
        make_receipt([[W], [W, (PRICE, 4.0)], [W, (PRICE, 2.5)]], seed=2),
        # only a TOTAL keyword without an amount: helper returns 0 via its early return;
        # no items at all -> empty unit list, subtotal 0, no mismatch
        make_receipt([[W, W], [(TOTAL, 0.0), W]], seed=3),
        # long receipt, truncated for the classifier, subtotal 210 != total 100 -> mismatch
        make_receipt(long_lines, seed=4),
    ]
