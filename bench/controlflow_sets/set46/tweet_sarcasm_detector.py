"""T: sarcasm classifier for short social posts (token ids in, 2-class probs out).

Constructs: 1, 2, 5, 8, 9
"""
import torch
import torch.nn as nn

EXCLAIM_ID = 7


class SarcasmDetector(nn.Module):
    def __init__(self, vocab=200, dim=24):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.drop = nn.Dropout(0.2)
        self.head = nn.Linear(dim, 2)
        self.exclaim_bias = nn.Parameter(torch.tensor([-0.8, 0.8]))

    def forward(self, tokens):
        e = self.emb(tokens)
        if e.shape[0] > 24:
            # long post: local windows, then max over windows
            chunks = []
            for s in range(0, e.shape[0], 8):
                chunks.append(e[s:s + 8].mean(0))
            pooled = torch.stack(chunks).max(0).values
        else:
            pooled = e.mean(0)
        if self.training:  # static
            pooled = self.drop(pooled)
        logits = self.head(pooled)
        n_exclaim = (tokens == EXCLAIM_ID).sum()
        if n_exclaim >= 3:
            logits = logits + self.exclaim_bias
        return torch.softmax(logits, dim=-1)


def _post(L, seed, n_exclaim):
    g = torch.Generator().manual_seed(seed)
    t = torch.randint(10, 200, (L,), generator=g)
    t[:n_exclaim] = EXCLAIM_ID
    return t.flip(0)


def model():
    torch.manual_seed(4603)
    return SarcasmDetector().eval()


def example_inputs():
    return (_post(12, 1, 4),)


def dynamic_shapes():
    return ({0: torch.export.Dim("tokens", min=2, max=128)},)


def verify_inputs():
    return [
        example_inputs(),      # short (mean pool), >=3 exclamations -> bias added
        (_post(2, 2, 0),),     # L=min, no exclamations
        (_post(25, 3, 1),),    # just over 24 -> chunked (4 chunks, last partial), no bias
        (_post(128, 4, 5),),   # L=max -> 16 chunks, bias added
    ]
