"""Patent analytics: resolve claim dependencies and score claim breadth.

Claims reference a parent claim ("The method of claim 3, wherein ...").
parent[i] = -1 for independent claims, -2 for cancelled claims, otherwise
the index of the claim it depends on.  For every claim the resolver walks
the dependency chain up to its independent root; references to a later
claim, or chains deeper than allowed, are reported as malformed.  A dependent
claim's representation is fused with the mean embedding of its chain before
a scorer predicts a breadth score (narrower as dependencies stack up).
"""
import torch
import torch.nn as nn


class ClaimScorer(nn.Module):
    def __init__(self, dim=32, hidden=32):
        super().__init__()
        self.own = nn.Linear(dim, hidden)
        self.ctx = nn.Linear(dim, hidden)
        self.deep = nn.Linear(hidden, hidden)
        self.out = nn.Linear(hidden, 1)

    def forward(self, own, context, depth):
        h = self.own(own)
        if depth > 0:
            h = h + self.ctx(context)
        h = torch.relu(self.deep(h)) + h if depth > 2 else h
        return self.out(torch.tanh(h)).squeeze(-1) - 0.1 * depth


class ClaimResolver(nn.Module):
    def __init__(self, dim=32, max_depth=8):
        super().__init__()
        self.max_depth = max_depth
        self.scorer = ClaimScorer(dim)

    def forward(self, parent, emb):
        scores, depths, roots, malformed = [], [], [], []
        for i in range(parent.shape[0]):
            if parent[i] == -2:
                scores.append(torch.zeros(()))
                depths.append(torch.tensor(0))
                roots.append(torch.tensor(-1))
                malformed.append(torch.tensor(False))
                continue
            chain = [torch.tensor(i)]
            bad = torch.tensor(False)
            j = parent[i]
            depth = torch.tensor(0)
            while j >= 0:
                if j >= chain[-1] or depth >= self.max_depth or parent[j] == -2:
                    bad = torch.tensor(True)
                    break
                chain.append(j)
                depth = depth + 1
                j = parent[j]
            idx = torch.stack(chain)
            context = emb[idx[1:]].mean(dim=0) if len(chain) > 1 else torch.zeros_like(emb[i])
            scores.append(self.scorer(emb[i], context, depth))
            depths.append(depth)
            roots.append(idx[-1])
            malformed.append(bad)
        return torch.stack(scores), torch.stack(depths), torch.stack(roots), torch.stack(malformed)


def model():
    torch.manual_seed(64)
    return ClaimResolver().eval()


def _emb(n, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(n, 32, generator=g)


def example_inputs():
    #                     1   2  3  4  5   6  7  8
    parent = torch.tensor([-1, 0, 1, 2, 0, -1, 5, -2])
    return parent, _emb(8, seed=0)


def dynamic_shapes():
    n = torch.export.Dim("claims", min=2, max=60)
    return ({0: n}, {0: n})


def verify_inputs():
    deep = torch.tensor([-1] + list(range(11)))              # chain 0 <- 1 <- ... <- 11, depths up to 11
    return [
        example_inputs(),   # independent (while 0x), depth 1, depth 3 (deep path), cancelled claim (continue)
        (deep, _emb(12, seed=1)),                            # chains longer than max_depth -> malformed, break on depth guard
        (torch.tensor([-1, 3, 0, -1]), _emb(4, seed=2)),     # claim 2 refers forward to claim 4 -> malformed break at once
        (torch.tensor([-1, -2, 1]), _emb(3, seed=3)),        # depends on a cancelled claim -> malformed
    ]
