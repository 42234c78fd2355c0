"""Per-cylinder spark-knock control: retard ignition on knock events, creep
back when quiet, base timing from a small learned spark map."""
import torch
import torch.nn as nn
from torch.export import Dim


class KnockController(nn.Module):
    def __init__(self, n_cyl=4, step=1.5, recover=0.25, max_retard=8.0, global_retard=True):
        super().__init__()
        self.step = step
        self.recover = recover
        self.max_retard = max_retard
        self.global_retard = global_retard
        self.base_thr = 1.0
        self.spark_map = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, n_cyl))

    def knock_threshold(self, rpm):
        # background noise grows with engine speed
        if rpm > 4000.0:
            return self.base_thr * (1.0 + (rpm - 4000.0) / 4000.0)
        return torch.full_like(rpm, self.base_thr)

    def forward(self, knock, rpm, load):
        # knock: [C, E] knock-sensor intensity per cylinder and combustion event
        # rpm: [E], load: [E] (0..1)
        retard = torch.zeros(knock.shape[0])
        timing = []
        for e in range(knock.shape[1]):
            thr = self.knock_threshold(rpm[e])
            knocked = knock[:, e] > thr
            if knocked.any():
                retard = torch.where(knocked, retard + self.step, retard).clamp(max=self.max_retard)
            else:
                retard = (retard - self.recover).clamp(min=0.0)
            if self.global_retard:
                # a heavily knocking cylinder drags the others halfway along
                retard = torch.maximum(retard, 0.5 * retard.max())
            base = 10.0 + 20.0 * torch.tanh(self.spark_map(torch.stack([rpm[e] / 6000.0, load[e]])))
            timing.append(base - retard)
        return torch.stack(timing, dim=1)


def model():
    torch.manual_seed(4904)
    return KnockController().eval()


def _run(E, seed, knock_prob=0.1, high_rpm=False):
    g = torch.Generator().manual_seed(seed)
    knock = 0.4 * torch.rand(4, E, generator=g)
    hits = torch.rand(4, E, generator=g) < knock_prob
    knock = torch.where(hits, knock + 2.5, knock)
    lo, hi = (4500.0, 6500.0) if high_rpm else (1500.0, 3500.0)
    rpm = lo + (hi - lo) * torch.rand(E, generator=g)
    load = torch.rand(E, generator=g)
    return knock, rpm, load


def example_inputs():
    # mixed knock / quiet events at normal rpm
    return _run(30, 31)


def dynamic_shapes():
    e = Dim("events", min=2, max=256)
    return ({1: e}, {0: e}, {0: e})


def verify_inputs():
    return [
        example_inputs(),
        _run(12, 32, knock_prob=0.0),                  # never knocks: only recovery branch
        _run(40, 33, knock_prob=0.3, high_rpm=True),   # high rpm threshold branch, knock + quiet
        _run(2, 34, knock_prob=1.0),                   # every cylinder knocks both events
        _run(256, 35, knock_prob=0.05),                # long run
    ]
