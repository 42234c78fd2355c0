"""Lab automation: pressure-based aspiration monitoring on a multi-channel pipettor.

Each channel records the air-gap pressure (mbar, relative) while aspirating.
Per channel the firmware finds the start of aspiration (pressure first
drops below a trigger), then looks at the plateau during aspiration and the
recovery after the plunger stops:
  * no pressure drop at all          -> no liquid contact / tip missing
  * plateau much more negative       -> clot or viscous blockage
  * pressure snaps back too quickly  -> air aspirated (insufficient volume)
  * otherwise                        -> OK
A small MLP on the channel's summary features gives a confidence score.
"""
import torch
import torch.nn as nn

OK, NO_ASPIRATION, CLOT, AIR = 0, 1, 2, 3


def first_below(trace, level):
    for i in range(trace.shape[0]):
        if trace[i] < level:
            return i
    return -1


def plateau_level(seg):
    if seg.shape[0] >= 5:
        return seg.median()
    return seg.mean()


class ChannelCheck(nn.Module):
    def __init__(self, trigger=-5.0, clot_ratio=1.8, air_recovery=0.9, window=12):
        super().__init__()
        self.trigger = trigger
        self.clot_ratio = clot_ratio
        self.air_recovery = air_recovery
        self.window = window

    def forward(self, trace, expected):
        start = first_below(trace, self.trigger)
        if start < 0:
            return torch.tensor(NO_ASPIRATION), torch.zeros(3)
        seg = trace[start:start + self.window]
        level = plateau_level(seg)
        after = trace[start + self.window:]
        recovery = (after.max() - level) / (-level) if after.shape[0] > 0 else torch.tensor(0.0)
        feats = torch.stack([level / expected, recovery, torch.tensor(float(start)) / trace.shape[0]])
        if level < self.clot_ratio * expected:
            return torch.tensor(CLOT), feats
        if recovery > self.air_recovery and after[:3].mean() > self.trigger:
            return torch.tensor(AIR), feats
        return torch.tensor(OK), feats


class Pipettor(nn.Module):
    def __init__(self):
        super().__init__()
        self.check = ChannelCheck()
        self.conf = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1), nn.Sigmoid())

    def forward(self, pressure, expected_mbar):
        status, conf = [], []
        for c in range(pressure.shape[0]):
            s, feats = self.check(pressure[c], expected_mbar[c])
            status.append(s)
            conf.append(self.conf(feats).squeeze(-1))
        return torch.stack(status), torch.stack(conf)


def model():
    torch.manual_seed(64)
    return Pipettor().eval()


def _trace(n, onset, plateau, asp_len, end_level, seed):
    """Pressure trace: 0 before onset, plateau during aspiration, then relaxes to end_level."""
    g = torch.Generator().manual_seed(seed)
    t = torch.zeros(n)
    if onset is not None:
        t[onset:onset + asp_len] = plateau
        t[onset + asp_len:] = end_level
    return t + 0.2 * torch.randn(n, generator=g)


def _run(specs, n):
    traces = torch.stack([_trace(n, *s, seed=i) for i, s in enumerate(specs)])
    return traces


def example_inputs():
    p = _run([(10, -20.0, 20, -15.0), (12, -45.0, 20, -40.0), (8, -20.0, 12, -1.0), (None, 0, 0, 0)], 60)
    return p, torch.full((4,), -20.0)


def dynamic_shapes():
    ch = torch.export.Dim("channels", min=2, max=16)
    t = torch.export.Dim("samples", min=4, max=400)
    return ({0: ch, 1: t}, {0: ch})


def verify_inputs():
    return [
        example_inputs(),   # OK, clot, air (fast recovery), no aspiration (helper loop exhausts, early return)
        (_run([(0, -22.0, 6, -18.0), (2, -30.0, 2, -28.0)], 16), torch.tensor([-20.0, -25.0])),
        # onset at sample 0 (loop breaks at once); short tail; second: short trace, plateau window mostly inside
        (_run([(4, -20.0, 10, -16.0), (6, -21.0, 10, -3.0)], 10), torch.tensor([-20.0, -20.0])),
        # trace ends inside the plateau window: no "after" samples (recovery ternary else); 4-sample plateau -> mean
        (_run([(40, -18.0, 300, -14.0), (100, -60.0, 200, -50.0), (None, 0, 0, 0)], 400), torch.tensor([-18.0, -20.0, -20.0])),
        # long traces: OK, clot, no aspiration
    ]
