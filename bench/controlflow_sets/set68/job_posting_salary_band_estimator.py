"""Salary-band estimator for job postings (HR / recruiting analytics).

Mean-pooled token embeddings of the posting plus a few structured fields feed a
small regression head that predicts the low end and the width of the salary
band.  Very long postings keep only their head and tail; unpaid postings
(internships / volunteer roles) short-circuit; the band is mapped to a tier.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

UNPAID_TOKEN = 3   # vocabulary id of "unpaid" / "volunteer"


class SalaryBandEstimator(nn.Module):
    def __init__(self, vocab=400, dim=24, max_tokens=64, use_meta=True):
        super().__init__()
        self.max_tokens = max_tokens
        self.use_meta = use_meta
        self.emb = nn.Embedding(vocab, dim)
        self.head = nn.Sequential(nn.Linear(dim + 4, 32), nn.ReLU(), nn.Linear(32, 2))

    def forward(self, tokens, meta):
        # meta = [years of experience required, remote (0/1), seniority level 0..5, log10 company size]
        if (tokens == UNPAID_TOKEN).any():
            return torch.zeros(3)
        if tokens.shape[0] > self.max_tokens:
            half = self.max_tokens // 2
            tokens = torch.cat([tokens[:half], tokens[-half:]])
        h = self.emb(tokens).mean(0)
        if self.use_meta:  # static-config
            h = torch.cat([h, meta / 5.0])
        else:
            h = torch.cat([h, torch.zeros(4)])
        q = self.head(h)
        low = 28.0 + 6.0 * meta[0] + 8.0 * meta[2] + 5.0 * torch.tanh(q[0])
        width = 10.0 + 4.0 * F.softplus(q[1])
        if meta[1] > 0.5 and not meta[2] > 2.5:
            # junior remote roles are usually posted lower
            low = low * 0.9
        mid = low + 0.5 * width
        if mid > 120.0:
            tier = torch.tensor(3.0)
        elif mid > 70.0:
            tier = torch.tensor(2.0)
        else:
            tier = torch.tensor(1.0)
        return torch.stack([low, low + width, tier])


def model():
    torch.manual_seed(202)
    return SalaryBandEstimator().eval()


def _tokens(seed, n):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(10, 400, (n,), generator=g)


def example_inputs():
    return _tokens(1, 40), torch.tensor([5.0, 0.0, 3.0, 3.0])


def dynamic_shapes():
    return ({0: torch.export.Dim("num_tokens", min=2, max=256)}, None)


def verify_inputs():
    unpaid = _tokens(4, 30)
    unpaid[7] = UNPAID_TOKEN
    return [
        # example: mid-level on-site role, short posting -> tier 2
        example_inputs(),
        # long posting (truncated to head+tail), junior remote -> discounted, tier 1
        (_tokens(2, 200), torch.tensor([1.0, 1.0, 1.0, 2.0])),
        # senior remote (not discounted), lots of experience -> tier 3
        (_tokens(3, 90), torch.tensor([12.0, 1.0, 5.0, 4.0])),
        # unpaid internship -> early return
        (unpaid, torch.tensor([0.0, 1.0, 0.0, 1.0])),
        # two-token posting, junior on-site -> tier 1
        (_tokens(5, 2), torch.tensor([0.0, 0.0, 0.0, 1.5])),
    ]
