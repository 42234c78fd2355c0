"""LSM-tree (RocksDB-style leveled) compaction planner: memtable flushes land
in L0; while any level's score is >= 1 the worst level is compacted into the
next one. Returns level sizes after each flush and compactions per flush."""
import torch
import torch.nn as nn
from torch.export import Dim


class CompactionPlanner(nn.Module):
    def __init__(self, l0_trigger=4.0, base_mb=256.0, fanout=10.0, dedup=0.85, max_rounds=6):
        super().__init__()
        self.l0_trigger = l0_trigger
        self.base_mb = base_mb
        self.fanout = fanout
        self.dedup = dedup
        self.max_rounds = max_rounds
        self.flush_mb = 64.0

    def scores(self, levels):
        n = levels.shape[0]
        cap = self.base_mb * self.fanout ** torch.arange(n - 1, dtype=torch.float32)
        l0 = (levels[:1] / self.flush_mb) / self.l0_trigger
        deeper = levels[1:n - 1] / cap[: n - 2]
        s = torch.cat([l0, deeper])  # last level is unbounded
        return s

    def compact(self, levels, i):
        moved = levels[i] * self.dedup
        onehot = torch.nn.functional.one_hot(i, levels.shape[0]).float()
        nxt = torch.roll(onehot, 1)
        return levels - levels[i] * onehot + moved * nxt

    def forward(self, levels, flushes):
        # levels: [Lv] MB per level (L0..Ln), flushes: [W] MB per memtable flush
        if levels.shape[0] < 3:
            # tiered mode: everything ends up in a single sorted run
            total = levels.sum() + torch.cumsum(flushes, 0) * self.dedup
            return torch.stack([torch.zeros_like(total), total], 1), torch.zeros_like(flushes)
        history, counts = [], []
        for w in range(flushes.shape[0]):
            if flushes[w] < 1.0:
                history.append(levels)
                counts.append(torch.tensor(0.0))
                continue  # empty memtable: nothing flushed
            levels = levels + torch.nn.functional.one_hot(torch.tensor(0), levels.shape[0]).float() * flushes[w]
            n = 0
            s = self.scores(levels)
            while s.max() >= 1.0:
                worst = s.argmax()
                levels = self.compact(levels, worst)
                n += 1
                if n >= self.max_rounds:
                    break
                s = self.scores(levels)
            history.append(levels)
            counts.append(torch.tensor(float(n)))
        return torch.stack(history), torch.stack(counts)


def model():
    torch.manual_seed(4913)
    return CompactionPlanner().eval()


def _flushes(W, seed, zero_every=0):
    g = torch.Generator().manual_seed(seed)
    f = 48.0 + 32.0 * torch.rand(W, generator=g)
    if zero_every:
        f[::zero_every] = 0.0
    return f


def example_inputs():
    # 4 levels, steady writes with a few idle flush slots
    return torch.tensor([10.0, 150.0, 1500.0, 9000.0]), _flushes(30, 131, zero_every=7)


def dynamic_shapes():
    return ({0: Dim("levels", min=2, max=8)}, {0: Dim("flushes", min=2, max=256)})


def verify_inputs():
    return [
        example_inputs(),
        (torch.tensor([0.0, 500.0]), _flushes(10, 132)),                      # 2 levels: tiered early return
        (torch.tensor([900.0, 250.0, 2550.0, 25500.0, 1e5]), _flushes(3, 133)),  # cascade: many compactions in one flush
        (torch.tensor([0.0, 0.0, 0.0]), torch.tensor([30.0, 40.0])),
        (torch.tensor([900.0, 3e3, 3e4, 3e5, 3e6, 3e7, 3e8, 1e9]), _flushes(3, 135)),  # every level over: hits max_rounds (break)          # light load: no compaction
        (torch.tensor([0.0, 100.0, 1000.0, 10000.0, 1e5, 1e6, 1e7, 1e8]), _flushes(256, 134, zero_every=5)),  # 8 levels, long run
    ]
