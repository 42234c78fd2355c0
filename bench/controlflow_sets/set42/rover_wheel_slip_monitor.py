"""Planetary rover traverse monitor: wheel slip estimation and embedding recovery.

Each drive step reports the odometry travel of the six wheels and the visual
odometry (VO) displacement. Each wheel has its own calibration network
(ModuleList) that corrects its effective radius for the terrain. Slip is
1 - VO / mean wheel travel; steps where VO failed (reported as a negative
displacement) reuse the previous estimate. Slip above the warning level for
several consecutive steps triggers the recovery manoeuvre: the rover backs out,
which the monitor models as geometric decay of the embedding estimate (slower
the deeper it is embedded), until it is back under the safe level (at most six
back-out steps). An instantaneous slip above the stuck level (wheels spinning
in place) stops the traverse for ground intervention.
Returns per-step slip estimates, the number of back-out manoeuvres and a
stop flag.

Kind: X. Constructs: 1, 2, 3, 4, 5, 6, 7, 9.
"""
import torch
from torch import nn
from torch.export import Dim

N_WHEELS = 6


class WheelCalibration(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 1)

    def forward(self, travel, step_len):
        scale = 1.0 + 0.05 * torch.tanh(self.fc(torch.stack([travel, step_len])))[0]
        return travel * scale


def effective_travel(calibrations, wheel_travel):
    step_len = wheel_travel.mean()
    corrected = [cal(wheel_travel[w], step_len) for w, cal in enumerate(calibrations)]
    return torch.stack(corrected).mean()


def slip_ratio(calibrations, wheel_travel, vo):
    travel = effective_travel(calibrations, wheel_travel)
    return (1.0 - vo / travel.clamp(min=1e-3)).clamp(-0.5, 1.0)


class SlipMonitor(nn.Module):
    def __init__(self, warn_slip=0.4, safe_slip=0.15, stuck_slip=0.95, warn_steps=3, max_backout=6):
        super().__init__()
        self.calibrations = nn.ModuleList([WheelCalibration() for _ in range(N_WHEELS)])
        self.warn_slip = warn_slip
        self.safe_slip = safe_slip
        self.stuck_slip = stuck_slip
        self.warn_steps = warn_steps
        self.max_backout = max_backout

    def forward(self, wheel_odo, vo):
        slip = torch.zeros(())
        high_count = 0
        backouts = 0
        history = []
        for t in range(wheel_odo.shape[0]):
            if vo[t] < 0:
                history.append(slip)  # VO dropout: hold the last estimate
                continue
            raw = slip_ratio(self.calibrations, wheel_odo[t], vo[t])
            if raw > self.stuck_slip:
                history.append(slip)
                return torch.stack(history), torch.tensor(backouts), torch.tensor(True)
            slip = 0.5 * slip + 0.5 * raw
            high_count = high_count + 1 if slip > self.warn_slip else 0
            if high_count >= self.warn_steps:
                decay = 0.5 + 0.4 * slip
                steps = 0
                while slip > self.safe_slip and steps < self.max_backout:
                    slip = slip * decay
                    steps += 1
                backouts += 1
                high_count = 0
            history.append(slip)
        return torch.stack(history), torch.tensor(backouts), torch.tensor(False)


def model():
    torch.manual_seed(4218)
    return SlipMonitor().eval()


def _drive(slips, seed, dropouts=()):
    """Per-step true slip -> wheel odometry (m) and VO displacement (m)."""
    g = torch.Generator().manual_seed(seed)
    n = len(slips)
    wheels = 0.10 * (1.0 + 0.02 * torch.randn(n, N_WHEELS, generator=g))
    vo = wheels.mean(dim=1) * (1.0 - torch.tensor(slips))
    for t in dropouts:
        vo[t] = -1.0
    return wheels, vo


def example_inputs():
    # firm ground, a sandy patch (sustained slip -> back-out), firm ground again, one VO dropout
    return _drive([0.05] * 6 + [0.5] * 6 + [0.05] * 8, seed=0, dropouts=(3,))


def dynamic_shapes():
    t = Dim("steps", min=2, max=1000)
    return ({0: t}, {0: t})


def verify_inputs():
    return [
        example_inputs(),                              # one back-out, ends when slip is safe; VO dropout held
        _drive([0.02] * 10, seed=1),                   # firm ground throughout: nothing happens
        _drive([0.05] * 3 + [1.0] * 12, seed=2),       # wheels spinning in place -> immediate stop
        _drive([0.88] * 7 + [0.05] * 3, seed=3),       # deep sand: back-out capped at 6 steps, twice
        _drive([0.9] * 3 + [0.05] * 3 + [0.9] * 3, seed=4, dropouts=(0, 6)),  # warning count resets before 3
    ]
