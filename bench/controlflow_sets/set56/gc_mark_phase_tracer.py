"""Mark phase of a managed-runtime garbage collector, plus heap sizing.

The heap snapshot is an object table: up to four outgoing references per object
(-1 = null slot), object sizes in KiB and survival ages.  Marking walks the
object graph from the root set with an explicit mark stack; if the live set
outgrows the heap limit mid-mark the collector aborts and asks for a full
compacting collection.  Survivors old enough are promoted to the old
generation, and a small learned policy picks the next heap size.
"""
import torch
import torch.nn as nn


class HeapSizer(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, stats):
        return 1.0 + torch.sigmoid(self.net(stats))   # growth factor in (1, 2)


class MarkCollector(nn.Module):
    def __init__(self):
        super().__init__()
        self.sizer = HeapSizer()
        self.heap_limit_kib = 4096.0
        self.tenure_age = 3

    def referents(self, refs, obj):
        row = refs[obj]
        return row[row >= 0]

    def forward(self, refs, roots, sizes, ages):
        # refs: (N, 4) int64, roots: (R,) int64, sizes: (N,) KiB, ages: (N,) collections survived
        n = refs.shape[0]
        marked = torch.zeros(n, dtype=torch.bool)
        live = torch.zeros(())
        overflow = False
        for r in roots:
            if marked[r]:
                continue           # already reached from an earlier root
            marked[r] = True
            live = live + sizes[r]
            stack = [r]
            while stack:
                obj = stack.pop()
                for c in self.referents(refs, obj):
                    if marked[c]:
                        continue
                    marked[c] = True
                    live = live + sizes[c]
                    stack.append(c)
                    if live > self.heap_limit_kib:
                        overflow = True
                        break
                if overflow:
                    break
            if overflow:
                break

        total = sizes.sum()
        if overflow:
            # abandon this young collection; the runtime will run a full compaction
            status = torch.tensor(2)
            promoted = torch.zeros(n, dtype=torch.bool)
        else:
            promoted = marked & (ages + 1 >= self.tenure_age)
            status = torch.tensor(1) if bool(promoted.any()) else torch.tensor(0)
        freed = sizes[~marked].sum()
        promoted_kib = sizes[promoted].sum()
        stats = torch.stack([live / self.heap_limit_kib, freed / total,
                             promoted_kib / total, torch.tensor(n / 256.0)])
        next_heap = total * self.sizer(stats)[0]
        return marked.long() + promoted.long(), torch.stack([live, freed, promoted_kib, next_heap]), status


def model():
    torch.manual_seed(5611)
    return MarkCollector().eval()


def _heap(n, seed, null_frac=0.4, size_hi=64.0, old_frac=0.2):
    g = torch.Generator().manual_seed(seed)
    refs = torch.randint(0, n, (n, 4), generator=g)
    refs[torch.rand(n, 4, generator=g) < null_frac] = -1
    sizes = 1.0 + (size_hi - 1.0) * torch.rand(n, generator=g)
    ages = (torch.rand(n, generator=g) < old_frac).float() * 3.0
    return refs, sizes, ages


def example_inputs():
    refs, sizes, ages = _heap(64, 1)
    return (refs, torch.tensor([0, 17, 33]), sizes, ages)


def dynamic_shapes():
    n = torch.export.Dim("objects", min=4, max=256)
    r = torch.export.Dim("roots", min=2, max=16)
    return ({0: n}, {0: r}, {0: n}, {0: n})


def verify_inputs():
    # min 4 objects: 0 -> 1 -> 2 -> 0 cycle, 3 unreachable; both roots in the cycle
    small_refs = torch.tensor([[1, -1, -1, -1], [2, -1, -1, -1], [0, -1, -1, -1], [-1, -1, -1, -1]])
    big_refs, big_sizes, big_ages = _heap(256, 3, null_frac=0.6, size_hi=40.0, old_frac=0.0)
    huge_refs, huge_sizes, huge_ages = _heap(120, 4, null_frac=0.2, size_hi=400.0)
    return [
        # 64 objects, 3 roots, cycles (continue on marked children), old survivors promoted
        example_inputs(),
        # min 4 objects, 2 roots: second root already marked -> skipped; nobody old -> status 0
        (small_refs, torch.tensor([0, 2]), torch.tensor([8.0, 16.0, 4.0, 32.0]), torch.zeros(4)),
        # max 256 objects, max 16 roots, sparse graph, young heap -> marks fit, nothing promoted
        (big_refs, torch.arange(0, 256, 16), big_sizes, big_ages),
        # 120 big objects, dense graph -> live set passes 4 MiB mid-mark: nested loops abort
        (huge_refs, torch.tensor([5, 6, 7, 8]), huge_sizes, huge_ages),
    ]
