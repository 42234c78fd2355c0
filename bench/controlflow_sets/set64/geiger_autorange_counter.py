"""Handheld Geiger counter firmware: auto-ranging count integration.

The counter integrates 100 ms ticks until it has enough counts for a
statistically meaningful rate (or runs out of buffered ticks), applies a
dead-time correction, converts to a dose rate and picks an alarm level.
Very short buffers (just after power-on) are averaged as they are.
"""
import torch
import torch.nn as nn


class GeigerAutorange(nn.Module):
    def __init__(self, tick_s=0.1, target_counts=200.0, dead_time_s=1e-4, cpm_per_usvh=150.0):
        super().__init__()
        self.tick_s = tick_s
        self.target_counts = target_counts
        self.dead_time_s = dead_time_s
        self.cpm_per_usvh = cpm_per_usvh
        # alarm thresholds in uSv/h: notice, warning, danger
        self.register_buffer("levels", torch.tensor([0.3, 1.0, 10.0]))

    def forward(self, ticks):
        n_ticks = ticks.shape[0]
        if n_ticks < 8:
            # warm-up: not enough history to auto-range
            total = ticks.sum()
            used = torch.tensor(n_ticks)
        else:
            total = torch.zeros(())
            used = torch.zeros((), dtype=torch.long)
            while total < self.target_counts and used < n_ticks:
                total = total + ticks[used]
                used = used + 1

        elapsed = used.float() * self.tick_s
        raw_cps = total / elapsed
        true_cps = raw_cps / (1.0 - raw_cps * self.dead_time_s)
        dose = true_cps * 60.0 / self.cpm_per_usvh

        if dose > self.levels[2]:
            level = torch.tensor(3)
        elif dose > self.levels[1]:
            level = torch.tensor(2)
        elif dose > self.levels[0]:
            level = torch.tensor(1)
        else:
            level = torch.tensor(0)
        return dose, level, used


def model():
    torch.manual_seed(64)
    return GeigerAutorange().eval()


def _pattern(period, n, value=1.0):
    t = torch.zeros(n)
    t[::period] = value
    return t


def example_inputs():
    # one count every 10 ticks for 120 ticks -> 1.0 cps -> 0.4 uSv/h
    return (_pattern(10, 120),)


def dynamic_shapes():
    ticks = torch.export.Dim("ticks", min=2, max=512)
    return ({0: ticks},)


def verify_inputs():
    return [
        example_inputs(),                                       # while runs until buffer end (counts < 200); level 1
        (torch.tensor([0.0, 1.0, 0.0, 0.0, 1.0]),),             # n_ticks < 8 warm-up branch; 4 cps -> level 2
        (torch.cat([torch.tensor([300.0]), torch.ones(15)]),),  # while exits after 1 tick (>= 200 counts); level 3
        (torch.full((64,), 6.0),),                              # while stops on count target after 34 ticks; level 3
        (torch.full((300,), 1.5),),                             # count target after 134 ticks; 15 cps -> 6 uSv/h level 2
        (_pattern(50, 400),),                                   # background 0.2 cps -> level 0, runs to buffer end
        (torch.zeros(2),),                                      # warm-up branch, silent tube -> level 0
    ]
