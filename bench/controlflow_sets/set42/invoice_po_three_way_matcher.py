"""Accounts-payable automation: three-way match of invoice lines to purchase-order
lines and goods receipts.

Invoice-line and PO-line descriptions arrive as text embeddings; a shared
projection maps them into a matching space. Every invoice line greedily takes
the most similar PO line that is still open (stopping early on a near-exact
match). The pair is approved only if the amount is within tolerance of the PO
price and not more than what was actually received; otherwise it is put on
hold. Lines without any plausible PO line are exceptions. A credit note
(non-positive total) skips matching entirely, and an invoice with more lines
than the PO is flagged for review.
Outputs per invoice line: matched PO line (-1 none) and status
(0 approved, 1 hold, 2 exception); plus the review flag.

Kind: X. Constructs: 1, 2, 3, 5, 6, 7, 8.
"""
import torch
import torch.nn.functional as F
from torch import nn
from torch.export import Dim

APPROVED, HOLD, EXCEPTION = 0, 1, 2


class DescriptionEncoder(nn.Module):
    def __init__(self, d_in=24, d_out=16):
        super().__init__()
        self.proj = nn.Linear(d_in, d_out)

    def forward(self, x):
        # keep most of the raw embedding so near-duplicate descriptions stay close
        return F.normalize(torch.cat([x, 0.3 * torch.tanh(self.proj(x))], dim=-1), dim=-1)


def within_tolerance(amount, reference, rel_tol=0.02, abs_tol=5.0):
    return (amount - reference).abs() <= torch.maximum(rel_tol * reference, torch.tensor(abs_tol))


class ThreeWayMatcher(nn.Module):
    def __init__(self, min_sim=0.6, exact_sim=0.97):
        super().__init__()
        self.encoder = DescriptionEncoder()
        self.min_sim = min_sim
        self.exact_sim = exact_sim

    def best_open_line(self, inv_vec, po_vecs, taken):
        best_j, best_sim = -1, torch.tensor(self.min_sim)
        for j in range(po_vecs.shape[0]):
            if taken[j]:
                continue
            sim = (inv_vec * po_vecs[j]).sum()
            if sim <= best_sim:
                continue
            best_j, best_sim = j, sim
            if sim > self.exact_sim:
                break
        return best_j

    def forward(self, inv_desc, inv_amt, po_desc, po_amt, received_amt):
        n_inv = inv_desc.shape[0]
        if inv_desc.shape[0] > po_desc.shape[0]:
            review = torch.tensor(True)  # more lines billed than were ordered
        else:
            review = torch.tensor(False)
        matched = torch.full((n_inv,), -1, dtype=torch.long)
        status = torch.full((n_inv,), EXCEPTION, dtype=torch.long)
        if inv_amt.sum() <= 0:
            return matched, status, review  # credit note: handled by a separate workflow
        inv_vecs = self.encoder(inv_desc)
        po_vecs = self.encoder(po_desc)
        taken = [False] * po_desc.shape[0]
        for i in range(n_inv):
            j = self.best_open_line(inv_vecs[i], po_vecs, taken)
            if j < 0:
                continue
            matched[i] = j
            if within_tolerance(inv_amt[i], po_amt[j]) and inv_amt[i] <= 1.005 * received_amt[j]:
                taken[j] = True
                status[i] = APPROVED
            else:
                status[i] = HOLD
        return matched, status, review


def model():
    torch.manual_seed(4219)
    return ThreeWayMatcher().eval()


def _catalog(n, seed):
    g = torch.Generator().manual_seed(seed)
    return F.normalize(torch.randn(n, 24, generator=g), dim=-1)


def _case(po_items, inv_rows, po_amt, received, inv_amt, seed, noise):
    """inv_rows: index of the PO item each invoice line describes (-1: unrelated item);
    noise: per invoice line, how loosely its description paraphrases the PO text."""
    g = torch.Generator().manual_seed(seed + 1)
    cat = _catalog(len(po_items) + len(inv_rows), seed)
    po = cat[:len(po_items)]
    inv = []
    for k, r in enumerate(inv_rows):
        base = po[r] if r >= 0 else cat[len(po_items) + k]
        inv.append(base + noise[k] * torch.randn(24, generator=g))
    return (torch.stack(inv), torch.tensor(inv_amt), po, torch.tensor(po_amt), torch.tensor(received))


def example_inputs():
    return _case(po_items=range(5), inv_rows=[2, 0, 4, -1],
                 po_amt=[1200.0, 85.5, 640.0, 99.0, 15000.0],
                 received=[1200.0, 85.5, 640.0, 0.0, 9000.0],
                 inv_amt=[640.0, 1195.0, 15000.0, 42.0], seed=0, noise=[0.01, 0.12, 0.01, 0.01])


def dynamic_shapes():
    n = Dim("inv_lines", min=2, max=64)
    m = Dim("po_lines", min=2, max=64)
    return ({0: n}, {0: n}, {0: m}, {0: m}, {0: m})


def verify_inputs():
    return [
        # approved (near-exact description: early break), approved with paraphrased description and
        # amount within tolerance, hold: amount above what was received, exception: no similar PO line
        example_inputs(),
        # duplicate invoice line: second copy finds its PO line already taken (exception); price 10 %
        # above PO -> hold; more invoice lines than PO lines -> review flag
        _case(po_items=range(2), inv_rows=[1, 1, 0], po_amt=[300.0, 50.0], received=[300.0, 50.0],
              inv_amt=[50.0, 50.0, 330.0], seed=1, noise=[0.01, 0.01, 0.01]),
        # credit note (negative total) -> no matching
        _case(po_items=range(3), inv_rows=[0, 1], po_amt=[10.0, 20.0, 30.0], received=[10.0, 20.0, 30.0],
              inv_amt=[-10.0, -20.0], seed=2, noise=[0.01, 0.01]),
    ]
