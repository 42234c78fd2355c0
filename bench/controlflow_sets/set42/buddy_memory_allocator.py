"""Learned-lifetime memory allocator (buddy system + short-lived nursery).

A trace of heap operations is replayed: each row of `ops` is (kind, value) with
kind 0 = malloc(value bytes) and kind 1 = free(the allocation made by op #value).
A small network predicts from per-call-site features whether an allocation is
short-lived; small short-lived objects go to a bump-pointer nursery so they do
not fragment the main 64 KiB buddy arena. The buddy arena splits blocks on
allocation and coalesces buddies on free.
Returns the address given to every op (-1: failed / invalid, frees return the
freed address), the arena fragmentation after the trace and the nursery usage.

Kind: X. Constructs: 1, 2, 3, 4, 5, 6, 7.
"""
import torch
from torch import nn
from torch.export import Dim

MALLOC, FREE = 0, 1
MIN_BLOCK = 64
MAX_ORDER = 10                 # 64 B << 10 = 64 KiB arena
NURSERY_BASE = 1 << 20
NURSERY_SIZE = 1024
SMALL = 256


def block_order(size):
    """Smallest order whose block (MIN_BLOCK << order) holds `size` bytes."""
    order = 0
    while MIN_BLOCK * 2 ** order < size:
        order += 1
    return order


def buddy_alloc(free_lists, order):
    k = order
    while k <= MAX_ORDER and not free_lists[k]:
        k += 1
    if k > MAX_ORDER:
        return -1
    off = free_lists[k].pop()
    while k > order:          # split, keep the lower half, free the upper half
        k -= 1
        free_lists[k].append(off + (MIN_BLOCK << k))
    return off


def buddy_free(free_lists, off, order):
    while order < MAX_ORDER:
        buddy = off ^ (MIN_BLOCK << order)
        if buddy not in free_lists[order]:
            break
        free_lists[order].remove(buddy)
        off = min(off, buddy)
        order += 1
    free_lists[order].append(off)


class LifetimePredictor(nn.Module):
    def __init__(self, n_feats=6):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(n_feats, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, feats):
        # feats[:, 0] is the profiled share of this call site's objects freed within 1 ms
        return 6.0 * (feats[:, 0] - 0.5) + 0.5 * torch.tanh(self.mlp(feats).squeeze(-1))


class LearnedBuddyAllocator(nn.Module):
    def __init__(self):
        super().__init__()
        self.lifetime = LifetimePredictor()

    def forward(self, ops, feats):
        short_lived = self.lifetime(feats) > 0
        free_lists = [[] for _ in range(MAX_ORDER + 1)]
        free_lists[MAX_ORDER].append(0)
        nursery_used = 0
        live = {}
        addresses = []
        for i in range(ops.shape[0]):
            kind, value = ops[i, 0], ops[i, 1]
            if kind == FREE:
                j = int(value)
                if j not in live:
                    addresses.append(-1)  # double free / free of a failed allocation
                    continue
                in_nursery, off, order = live.pop(j)
                if not in_nursery:
                    buddy_free(free_lists, off, order)
                addresses.append(off)
                continue
            if value <= 0:
                addresses.append(-1)
                continue
            if short_lived[i] and value <= SMALL and nursery_used + value <= NURSERY_SIZE:
                off = NURSERY_BASE + nursery_used
                nursery_used += int(value)
                live[i] = (True, off, -1)
                addresses.append(off)
                continue
            order = block_order(value)
            if order > MAX_ORDER:
                addresses.append(-1)
                continue
            off = buddy_alloc(free_lists, order)
            if off >= 0:
                live[i] = (False, off, order)
            addresses.append(off)
        free_bytes = sum(len(blocks) * (MIN_BLOCK << k) for k, blocks in enumerate(free_lists))
        largest = max([MIN_BLOCK << k for k, blocks in enumerate(free_lists) if blocks], default=0)
        frag = 1.0 - largest / free_bytes if free_bytes > 0 else 0.0
        return (torch.tensor(addresses, dtype=torch.long), torch.tensor([frag]),
                torch.tensor(nursery_used))


def model():
    torch.manual_seed(4214)
    return LearnedBuddyAllocator().eval()


def _trace(rows, seed):
    """rows: (kind, value, short_lived_share)."""
    g = torch.Generator().manual_seed(seed)
    ops = torch.tensor([[k, v] for k, v, _ in rows], dtype=torch.long)
    feats = torch.rand(len(rows), 6, generator=g)
    feats[:, 0] = torch.tensor([s for _, _, s in rows])
    return ops, feats


def example_inputs():
    return _trace([
        (MALLOC, 100, 0.1),    # 0: buddy, order 1 (splits the whole arena)
        (MALLOC, 48, 0.9),     # 1: small and short-lived -> nursery
        (MALLOC, 3000, 0.2),   # 2: buddy, order 6
        (MALLOC, 64, 0.1),     # 3: buddy, order 0 (no rounding loop)
        (FREE, 1, 0.5),        # free nursery object
        (FREE, 0, 0.5),        # free buddy block: its buddy (op 3) is still live, no merge
        (MALLOC, 200, 0.9),    # 6: nursery
        (FREE, 3, 0.5),        # now the buddies coalesce several levels up
        (FREE, 2, 0.5),
        (MALLOC, 512, 0.2),    # 9: reuses the coalesced block at address 0
    ], seed=0)


def dynamic_shapes():
    n = Dim("ops", min=2, max=512)
    return ({0: n}, {0: n})


def verify_inputs():
    return [
        example_inputs(),      # nursery + buddy split/coalesce, both free paths
        _trace([               # invalid sizes, oversize request, double free, free of a failed op
            (MALLOC, 0, 0.1), (MALLOC, 70000, 0.1), (MALLOC, 1000, 0.1), (FREE, 2, 0.5),
            (FREE, 2, 0.5), (FREE, 1, 0.5),
        ], seed=1),
        _trace([(MALLOC, 16384, 0.1)] * 5, seed=2),   # arena exhausted: fifth request fails
        _trace([(MALLOC, 250, 0.95)] * 5 + [(MALLOC, 300, 0.95)], seed=3),  # nursery fills up -> buddy;
        # 300 B is short-lived but too big for the nursery
    ]
