"""CDN edge cache: replay a request stream through an LRU cache with a learned admission filter."""
import torch
import torch.nn as nn


class AdmissionFilter(nn.Module):
    def __init__(self, n_objects, dim=8):
        super().__init__()
        self.emb = nn.Embedding(n_objects, dim)
        self.score = nn.Linear(dim, 1)

    def forward(self, object_id):
        return torch.sigmoid(self.score(self.emb(object_id)))[0]


class LRUCacheSim(nn.Module):
    def __init__(self, n_objects=32, slots=4):
        super().__init__()
        self.admission = AdmissionFilter(n_objects)
        self.slots = slots
        self.admit_threshold = 0.5

    def forward(self, requests):
        # requests [N] int64 object ids
        cache = torch.full((self.slots,), -1, dtype=torch.int64)
        last_used = torch.full((self.slots,), -1, dtype=torch.int64)
        hits = []
        for t in range(requests.shape[0]):
            rid = requests[t]
            here = cache == rid
            if here.any():
                last_used = torch.where(here, torch.full_like(last_used, t), last_used)
                hits.append(torch.ones((), dtype=torch.bool))
                continue
            hits.append(torch.zeros((), dtype=torch.bool))
            if not self.admission(rid.unsqueeze(0)) > self.admit_threshold:
                continue               # one-hit wonders are not cached
            empty = cache < 0
            if empty.any():
                slot = int(empty.nonzero()[0, 0])
            else:
                slot = int(last_used.argmin())   # evict least recently used (timestamps are unique)
            cache[slot] = rid
            last_used[slot] = t
        hit_mask = torch.stack(hits)
        return hit_mask, cache, hit_mask.float().mean()


def model():
    torch.manual_seed(0)
    m = LRUCacheSim()
    with torch.no_grad():
        m.admission.score.weight.mul_(4.0)
    return m.eval()


def _case(seed, n, universe, pool=None):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, universe, (n,), generator=g)
    if pool is not None:
        ids = torch.tensor(pool)[ids % len(pool)]
    return (ids,)


def example_inputs():
    return _case(0, 12, 8)


def dynamic_shapes():
    n = torch.export.Dim("requests", min=2, max=512)
    return ({0: n},)


def verify_inputs():
    return [
        _case(1, 20, 6, pool=[4, 6, 8, 9, 10, 11]),   # popular objects: hits and LRU evictions
        _case(2, 16, 32),     # large universe: mostly misses
        (torch.tensor([4, 4, 3, 4, 3]),),             # one admitted object, one rejected
        _case(4, 30, 10),
    ]
