"""Bateman decay-chain simulator with an adaptive Heun/Euler integrator, as
used for a lab gamma-counter planning tool.

n0[k] atoms of each nuclide in a linear chain k -> k+1 (last one stable or
long-lived), half_lives[k] in seconds.  The run is split into segments of
`segment_s` seconds (count from t_end); within a segment the integrator
takes adaptive steps, halving the step until the embedded error estimate is
below tolerance.  After each segment the detector count rate is recorded
(learned per-nuclide efficiency).  The simulation stops early once
everything has decayed away.
"""
import math

import torch
import torch.nn as nn


class DecayChain(nn.Module):
    def __init__(self, segment_s=100.0, rtol=1e-2, max_steps=400):
        super().__init__()
        self.efficiency = nn.Linear(1, 1)
        self.segment_s = segment_s
        self.rtol = rtol
        self.max_steps = max_steps
        self.h_min = 1e-3

    def rates(self, n, lam):
        feed = torch.cat([torch.zeros(1), lam[:-1] * n[:-1]])
        return feed - lam * n

    def heun_step(self, n, lam, h):
        k1 = self.rates(n, lam)
        euler = n + h * k1
        k2 = self.rates(euler, lam)
        heun = n + 0.5 * h * (k1 + k2)
        err = (heun - euler).abs().max() / (n.abs().max() + 1e-12)
        return heun, err

    def count_rate(self, n, lam, half_lives):
        eff = torch.sigmoid(self.efficiency(torch.log10(half_lives).unsqueeze(1))).squeeze(1)
        return eff * lam * n

    def forward(self, n0, half_lives, t_end):
        lam = math.log(2.0) / half_lives
        n = n0.clone()
        h = torch.full((), 1.0)
        t = torch.zeros(())
        steps = 0
        record = []
        n_segments = max(1, int(math.ceil(t_end.item() / self.segment_s)))
        for seg in range(n_segments):
            seg_end = torch.minimum(t_end.squeeze(), torch.tensor((seg + 1) * self.segment_s))
            while t < seg_end and steps < self.max_steps:
                h = torch.minimum(h, seg_end - t)
                new, err = self.heun_step(n, lam, h)
                while err > self.rtol:
                    if h / 2 < self.h_min:
                        break                          # accept the minimum step
                    h = h / 2
                    new, err = self.heun_step(n, lam, h)
                n = new.clamp(min=0.0)
                t = t + h
                steps += 1
                if err < 0.25 * self.rtol:
                    h = h * 2
            record.append(self.count_rate(n, lam, half_lives))
            if (n < 1e-6 * n0.sum()).all():
                break                                  # chain fully decayed
        return n, torch.stack(record), torch.tensor(steps)


def model():
    torch.manual_seed(517)
    return DecayChain().eval()


def example_inputs():
    # e.g. short-lived parent, medium daughter, long-lived grand-daughter
    return (torch.tensor([1.0e6, 0.0, 0.0]), torch.tensor([20.0, 150.0, 5.0e4]),
            torch.tensor([250.0]))


def dynamic_shapes():
    k = torch.export.Dim("nuclides", min=2, max=12)
    return ({0: k}, {0: k}, None)


def verify_inputs():
    hl12 = torch.tensor([30.0 * 1.6 ** k for k in range(12)])
    n12 = torch.zeros(12)
    n12[0] = 5.0e5
    return [
        example_inputs(),                                            # 3 segments, step halving and growth
        (torch.tensor([1.0e4, 0.0]), torch.tensor([2.0, 3.0]), torch.tensor([600.0])),  # fast pair decays -> early stop
        (n12, hl12, torch.tensor([400.0])),                          # 12-member chain, 4 segments
        (torch.tensor([1.0e3, 1.0e3]), torch.tensor([1.0e5, 1.0e6]), torch.tensor([50.0])),  # slow, one short segment
        (torch.tensor([1.0e4, 0.0]), torch.tensor([4.0e-3, 30.0]), torch.tensor([60.0])),  # ms isomer: step floor hit, stiffness then runs into max_steps
    ]
