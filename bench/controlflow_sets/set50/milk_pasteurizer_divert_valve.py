"""HTST milk pasteurizer: decide whether the flow-diversion valve must send
milk back to the balance tank.

The holding-tube exit RTD is corrected for drift with a tiny learned model,
then the last `hold_seconds` of readings are checked against the legal
pasteurization temperature (72 C / 15 s) and the flow against the timing-pump
limit.  Also reports the accumulated lethality (F-value) of the window.
"""
import torch
import torch.nn as nn


class HTSTDivertController(nn.Module):
    def __init__(self, legal_temp=72.0, hold_seconds=15, max_flow=80.0, strict_mode=True):
        super().__init__()
        self.drift = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))
        self.legal_temp = legal_temp
        self.hold_seconds = hold_seconds
        self.max_flow = max_flow
        self.strict_mode = strict_mode
        self.z_value = 7.0

    def corrected_temperature(self, temp, flow):
        feats = torch.stack([(temp - 70.0) / 10.0, flow / 100.0], dim=-1)
        return temp + 0.1 * torch.tanh(self.drift(feats).squeeze(-1))

    def lethality(self, window):
        # equivalent seconds at the reference temperature
        return torch.pow(10.0, (window - self.legal_temp) / self.z_value).sum()

    def forward(self, temp, flow):
        corr = self.corrected_temperature(temp, flow)

        # not enough history yet: judge on everything we have
        if corr.shape[0] < self.hold_seconds:
            window = corr
        else:
            window = corr[-self.hold_seconds:]

        under_temp = (window < self.legal_temp).any()
        over_flow = flow.max() > self.max_flow
        if under_temp or over_flow:
            valve = torch.tensor(1)                      # divert
            reason = torch.where(under_temp, torch.tensor(1), torch.tensor(2))
        elif self.strict_mode and window.min() < self.legal_temp + 0.5:
            valve = torch.tensor(0)                      # forward flow, but warn
            reason = torch.tensor(3)
        else:
            valve = torch.tensor(0)
            reason = torch.tensor(0)
        return valve, reason, self.lethality(window)


def model():
    torch.manual_seed(501)
    return HTSTDivertController().eval()


def _trace(n, base, dip_at=None, flow_level=60.0, seed=0):
    g = torch.Generator().manual_seed(seed)
    temp = base + 0.2 * torch.randn(n, generator=g)
    if dip_at is not None:
        temp[dip_at] = 70.5
    flow = flow_level + 2.0 * torch.randn(n, generator=g)
    return temp, flow


def example_inputs():
    return _trace(40, 74.0, seed=1)


def dynamic_shapes():
    sec = torch.export.Dim("seconds", min=8, max=256)
    return ({0: sec}, {0: sec})


def verify_inputs():
    return [
        example_inputs(),                       # long trace, hot, normal flow -> forward, reason 0
        _trace(8, 74.0, dip_at=3, seed=2),      # short trace (< hold) with a dip -> divert, reason 1
        _trace(256, 74.0, flow_level=90.0, seed=3),  # long trace, over-flow -> divert, reason 2
        _trace(100, 72.6, seed=4),              # temperature marginal -> warning, reason 3
        _trace(30, 74.0, dip_at=10, seed=5),    # dip earlier than the hold window -> forward
    ]
