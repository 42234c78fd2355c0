"""T: session-based next-item recommender (GRU over clicked items, bounces skipped).

items (L,) item ids, dwell (L,) seconds on each page. Returns scores over the catalog (64,).
Constructs: 1, 5, 6, 8, 9
"""
import torch
import torch.nn as nn


class SessionRecommender(nn.Module):
    def __init__(self, n_items=64, dim=16, max_len=20, bounce_s=2.0):
        super().__init__()
        self.emb = nn.Embedding(n_items, dim)
        self.cell = nn.GRUCell(dim + 1, dim)
        self.max_len = max_len
        self.bounce_s = bounce_s
        self.out = nn.Linear(dim, n_items)

    def forward(self, items, dwell):
        if items.shape[0] > self.max_len:
            items = items[-self.max_len:]
            dwell = dwell[-self.max_len:]
        x = self.emb(items)
        h = torch.zeros(1, self.cell.hidden_size)
        for t in range(x.shape[0]):
            # bounced page views carry no intent
            if dwell[t] < self.bounce_s:
                continue
            inp = torch.cat([x[t], torch.log1p(dwell[t]).reshape(1)]).unsqueeze(0)
            h = self.cell(inp, h)
        return torch.log_softmax(self.out(h)[0], dim=-1)


def _session(L, seed, bounce_every=0):
    g = torch.Generator().manual_seed(seed)
    items = torch.randint(0, 64, (L,), generator=g)
    dwell = 5.0 + 30.0 * torch.rand(L, generator=g)
    if bounce_every:
        dwell[::bounce_every] = 0.5
    return items, dwell


def model():
    torch.manual_seed(4610)
    return SessionRecommender().eval()


def example_inputs():
    return _session(10, 1, bounce_every=3)


def dynamic_shapes():
    L = torch.export.Dim("clicks", min=2, max=300)
    return ({0: L}, {0: L})


def verify_inputs():
    return [
        example_inputs(),              # short, some bounces skipped
        _session(2, 2),                # L=min, no bounces
        _session(300, 3, bounce_every=4),  # L=max: truncated to last 20, bounces
        _session(4, 4, bounce_every=1),    # every view a bounce: GRU never updated
    ]
