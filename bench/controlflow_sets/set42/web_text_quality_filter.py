"""Pre-training data cleaning: perplexity / repetition filter for crawled web text.

A small tied-embedding GRU language model scores every (padded) document of a
batch. Documents longer than the scoring context are truncated, documents that
are too short are rejected outright, and the rest are kept only if they are not
degenerate boilerplate (suspiciously low perplexity) and not dominated by
repeated tokens (low unique-token ratio).

Kind: T. Constructs: 1, 3, 5, 6, 8.
"""
import torch
import torch.nn.functional as F
from torch import nn
from torch.export import Dim

PAD = 0
VOCAB = 500


class QualityFilter(nn.Module):
    def __init__(self, dim=32, max_len=256, min_tokens=8, min_ppl=100.0, min_unique=0.3):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, dim, padding_idx=PAD)
        self.gru = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, VOCAB)
        nn.init.normal_(self.emb.weight, std=0.3)
        with torch.no_grad():
            self.emb.weight[PAD].zero_()
        self.tie_scale = 2.0
        self.max_len = max_len
        self.min_tokens = min_tokens
        self.min_ppl = min_ppl
        self.min_unique = min_unique

    def token_nll(self, tokens):
        e = self.emb(tokens)
        h, _ = self.gru(e)
        logits = self.tie_scale * e @ self.emb.weight.t() + self.out(h)
        b, n = tokens.shape
        nll = F.cross_entropy(logits[:, :-1].reshape(-1, VOCAB), tokens[:, 1:].reshape(-1), reduction="none")
        return nll.view(b, n - 1)

    def forward(self, tokens):
        if tokens.shape[1] > self.max_len:
            tokens = tokens[:, :self.max_len]
        mask = tokens != PAD
        pair_mask = (mask[:, 1:] & mask[:, :-1]).float()
        nll = self.token_nll(tokens)
        keep, ppls = [], []
        for b in range(tokens.shape[0]):
            n_tok = mask[b].sum()
            if n_tok < self.min_tokens:
                keep.append(False)
                ppls.append(torch.zeros(()))
                continue
            ppl = torch.exp((nll[b] * pair_mask[b]).sum() / pair_mask[b].sum())
            unique_ratio = torch.unique(tokens[b][mask[b]]).numel() / n_tok
            keep.append(bool(ppl > self.min_ppl and unique_ratio > self.min_unique))
            ppls.append(ppl)
        return torch.tensor(keep), torch.stack(ppls)


def model():
    torch.manual_seed(4210)
    return QualityFilter().eval()


def _doc(kind, n, seed):
    g = torch.Generator().manual_seed(seed)
    if kind == "text":
        return torch.randint(1, VOCAB, (n,), generator=g)
    if kind == "boiler":      # same token over and over ("Home Home Home ...")
        return torch.full((n,), int(torch.randint(1, VOCAB, (1,), generator=g)))
    if kind == "loop":        # short phrase repeated (menus, SEO spam)
        phrase = torch.randint(1, VOCAB, (5,), generator=g)
        return phrase.repeat(n // 5 + 1)[:n]
    raise ValueError(kind)


def _batch(docs, length, seed=0):
    out = torch.full((len(docs), length), PAD, dtype=torch.long)
    for i, (kind, n) in enumerate(docs):
        out[i, :n] = _doc(kind, n, seed + i)
    return (out,)


def example_inputs():
    return _batch([("text", 60), ("boiler", 40), ("loop", 64), ("text", 5), ("text", 96)], 96)


def dynamic_shapes():
    return ({0: Dim("docs", min=2, max=32), 1: Dim("tokens", min=4, max=512)},)


def verify_inputs():
    return [
        # good text kept, boilerplate (low ppl) dropped, repeated phrase (low unique ratio) dropped,
        # too-short document rejected
        example_inputs(),
        _batch([("text", 300), ("loop", 400)], 400, seed=10),  # longer than context: truncated to 256
        _batch([("text", 3), ("boiler", 6)], 6, seed=20),      # all too short
    ]
