"""Semi-batch reactor thermal-runaway monitor (exothermic dosing reaction).

From the reactor temperature trend it estimates the self-heating rate and a
Semenov-style time-to-maximum-rate (TMR).  A small learned model adds a
runaway-risk probability from the current operating point.
Action codes: 0 continue, 1 stop dosing, 2 stop dosing + emergency quench.
"""
import torch
import torch.nn as nn


def self_heating_rate(temp, sample_s):
    """K/min over the last 10 samples (or the whole trace if shorter)."""
    if temp.shape[0] < 10:
        window = temp
    else:
        window = temp[-10:]
    minutes = (window.shape[0] - 1) * sample_s / 60.0
    return (window[-1] - window[0]) / minutes


def time_to_max_rate(temp_now, slope, activation_k):
    """Minutes until maximum runaway rate; 'infinite' when cooling."""
    if slope <= 0:
        return torch.full((), 1.0e4)
    tk = temp_now + 273.15
    return (tk * tk / (activation_k * slope)).clamp(max=1.0e4)


def assess(temp, sample_s, activation_k):
    slope = self_heating_rate(temp, sample_s)
    return slope, time_to_max_rate(temp[-1], slope, activation_k)


class RunawayMonitor(nn.Module):
    def __init__(self, sample_s=30.0, activation_k=10000.0, max_delta_jacket=40.0):
        super().__init__()
        self.risk = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))
        self.sample_s = sample_s
        self.activation_k = activation_k
        self.max_delta_jacket = max_delta_jacket

    def forward(self, temp, jacket, dosing):
        slope, tmr = assess(temp, self.sample_s, self.activation_k)
        feats = torch.stack([temp[-1] / 100.0, jacket[-1] / 100.0, dosing[-1], slope])
        risk = torch.sigmoid(self.risk(feats)).squeeze()

        dosing_active = dosing[-1] > 0.01
        if tmr < 60.0 and dosing_active:
            action = torch.tensor(2)
        elif tmr < 240.0 or (temp[-1] - jacket[-1] > self.max_delta_jacket):
            action = torch.tensor(1)
        else:
            action = torch.tensor(0)
        return action, tmr, risk


def model():
    torch.manual_seed(508)
    return RunawayMonitor().eval()


def _batch(n, start, ramp_per_min, jacket_temp=60.0, dose=0.5):
    minutes = torch.arange(n, dtype=torch.float32) * 0.5
    temp = start + ramp_per_min * minutes
    jacket = torch.full((n,), jacket_temp)
    dosing = torch.full((n,), dose)
    return temp, jacket, dosing


def example_inputs():
    return _batch(60, 80.0, 0.01)


def dynamic_shapes():
    t = torch.export.Dim("samples", min=8, max=400)
    return ({0: t}, {0: t}, {0: t})


def verify_inputs():
    return [
        example_inputs(),                    # slow drift, TMR long -> continue
        _batch(8, 90.0, 1.0),                # short trace, fast rise while dosing -> quench
        _batch(400, 85.0, 0.1),              # TMR between 1 h and 4 h -> stop dosing
        _batch(50, 95.0, -0.2, jacket_temp=70.0),  # cooling -> infinite TMR, continue
        _batch(30, 90.0, 1.0, dose=0.0),     # fast rise but dosing already stopped -> stop dosing
        _batch(20, 75.0, 0.0, jacket_temp=25.0),   # flat but jacket 50 K below -> stop dosing
    ]
