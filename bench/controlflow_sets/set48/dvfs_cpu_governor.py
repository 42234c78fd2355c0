"""CPU frequency governor (ondemand-style) with thermal capping on a big.LITTLE phone SoC.

Per tick: a thermal loop lowers the frequency cap while the predicted junction temperature is
above the limit; then each core picks an operating point: jump to the top on high load, step down
on low load, otherwise scale proportionally. Idle cores are power-gated. With more than four cores,
the upper half are "big" cores with their own frequency table. A small learned model predicts
package power for the logs.
"""
import torch
import torch.nn as nn


class Governor(nn.Module):
    def __init__(self, up=0.80, down=0.30, idle=0.02, t_limit=85.0):
        super().__init__()
        self.up = up
        self.down = down
        self.idle = idle
        self.t_limit = t_limit
        self.register_buffer("little_freqs", torch.tensor([0.3, 0.6, 1.0, 1.4, 1.8]))
        self.register_buffer("big_freqs", torch.tensor([0.5, 1.0, 1.6, 2.2, 2.8, 3.2]))
        self.power = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 1))

    def pick_level(self, util, level, n_levels):
        if util > self.up:
            return n_levels - 1
        if util < self.down:
            return max(level - 1, 0)
        return int(torch.ceil(util * (n_levels - 1)).item())

    def forward(self, util, temp):
        # util: (T, C) per-core utilisation 0..1; temp: (T,) junction temperature (C)
        T, C = util.shape
        if C > 4:
            tables = [self.little_freqs] * (C // 2) + [self.big_freqs] * (C - C // 2)
        else:
            tables = [self.little_freqs] * C
        levels = [0] * C
        cap = 10
        freqs = []
        for t in range(T):
            predicted = temp[t] + 0.0
            cap = min(cap + 1, 10)
            while predicted > self.t_limit and cap > 0:
                cap -= 1
                predicted = predicted - 2.5  # each cap step sheds roughly 2.5 C
            row = []
            for c in range(C):
                table = tables[c]
                if util[t, c] < self.idle:
                    levels[c] = 0
                    row.append(torch.zeros(()))  # power-gated
                    continue
                levels[c] = min(self.pick_level(util[t, c], levels[c], table.shape[0]), cap)
                row.append(table[min(levels[c], table.shape[0] - 1)])
            freqs.append(torch.stack(row))
        freqs = torch.stack(freqs)
        power = self.power(torch.stack([freqs.mean(1), temp / 100.0], dim=1)).squeeze(1)
        return freqs, power


def model():
    torch.manual_seed(48020)
    return Governor().eval()


def example_inputs():
    util = torch.tensor([
        [0.95, 0.10, 0.01, 0.52],
        [0.90, 0.20, 0.00, 0.55],
        [0.40, 0.05, 0.00, 0.62],
        [0.10, 0.85, 0.01, 0.20],
    ])
    return util, torch.tensor([60.0, 70.0, 88.0, 92.0])


def dynamic_shapes():
    return ({0: torch.export.Dim("ticks", min=2, max=128), 1: torch.export.Dim("cores", min=2, max=16)},
            {0: torch.export.Dim("ticks", min=2, max=128)})


def verify_inputs():
    g = torch.Generator().manual_seed(5)
    busy = torch.rand(6, 8, generator=g) * 0.9 + 0.05
    return [
        example_inputs(),  # 4 cores: jump up, step down, proportional, power-gated; thermal loop 0 / 2 / 3 times
        (busy, torch.tensor([70.0, 75.0, 99.0, 99.0, 60.0, 40.0])),  # 8 cores -> big.LITTLE tables; hot ticks cap hard
        (torch.tensor([[0.45, 0.45], [0.6, 0.01]]), torch.tensor([140.0, 50.0])),  # runaway temp: cap hits 0 (loop ends on cap)
    ]
