"""Hospital-bed pressure-injury prevention: repositioning scheduler.

A pressure-sensing mattress reports the peak interface pressure (mmHg) of six
body zones once a minute. A tolerance network maps the patient's risk profile
(Braden sub-scores, age, BMI ...) to a per-zone tissue damage budget. Load above
the capillary closure pressure accumulates as "ischemic dose"; when any zone
exceeds its budget, or the maximum interval since the last turn has elapsed,
a repositioning is scheduled and the doses partly recover. Minutes with the
patient out of bed let all tissue recover. A mattress that reads nothing at
all is reported as a sensor fault.
Returns the minutes at which turns are due, the final dose/budget ratio per
zone and a fault flag.

Kind: X. Constructs: 1, 2, 3, 5, 6, 7, 9.
"""
import torch
from torch import nn
from torch.export import Dim

ZONES = ("occiput", "scapulae", "sacrum", "left_hip", "right_hip", "heels")


class ToleranceNet(nn.Module):
    def __init__(self, n_feats=8):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(n_feats, 16), nn.ReLU(), nn.Linear(16, len(ZONES)))
        # bony prominences tolerate less load (mmHg-minutes above closure pressure)
        self.register_buffer("base_budget", torch.tensor([900.0, 1400.0, 600.0, 800.0, 800.0, 500.0]))

    def forward(self, patient):
        return self.base_budget * torch.exp(0.3 * torch.tanh(self.mlp(patient)))


def accumulate_dose(dose, frame, closure):
    """Add one minute of ischemic dose (load above capillary closure) zone by zone."""
    for z in range(len(ZONES)):
        if frame[z] <= closure:
            continue  # perfused
        dose[z] = dose[z] + (frame[z] - closure)
    return dose


class TurningScheduler(nn.Module):
    def __init__(self, closure_mmhg=32.0, out_of_bed_mmhg=60.0, max_interval_min=120, max_turns=12):
        super().__init__()
        self.tolerance = ToleranceNet()
        self.closure = closure_mmhg
        self.out_of_bed = out_of_bed_mmhg
        self.max_interval = max_interval_min
        self.max_turns = max_turns

    def forward(self, mat, patient):
        if mat.max() < 1.0:
            return torch.zeros(0, dtype=torch.long), torch.zeros(len(ZONES)), torch.tensor(True)
        budget = self.tolerance(patient)
        dose = torch.zeros(len(ZONES))
        turns = []
        last_turn = 0
        for t in range(mat.shape[0]):
            frame = mat[t]
            if frame.sum() < self.out_of_bed:
                dose = dose * 0.9  # out of bed: tissue reperfuses
                last_turn = t
                continue
            dose = accumulate_dose(dose, frame, self.closure)
            if (dose > budget).any() or t - last_turn >= self.max_interval:
                turns.append(t)
                dose = dose * 0.2
                last_turn = t
                if len(turns) >= self.max_turns:
                    break
        return torch.tensor(turns, dtype=torch.long), dose / budget, torch.tensor(False)


def model():
    torch.manual_seed(4216)
    return TurningScheduler().eval()


def _night(minutes, load, seed, out_of_bed=(), noise=1.5):
    """Mattress frames: per-zone base load (mmHg) + noise; zeros while out of bed."""
    g = torch.Generator().manual_seed(seed)
    frames = torch.tensor(load).repeat(minutes, 1) + noise * torch.randn(minutes, len(ZONES), generator=g)
    for a, b in out_of_bed:
        frames[a:b] = 0.5 * torch.rand(b - a, len(ZONES), generator=g)
    return frames.clamp(min=0.0)


def _patient(seed, risk):
    g = torch.Generator().manual_seed(seed)
    return risk + 0.1 * torch.randn(8, generator=g)


SUPINE = [20.0, 24.0, 45.0, 15.0, 15.0, 40.0]          # sacrum and heels above closure pressure
LATERAL = [18.0, 22.0, 20.0, 55.0, 10.0, 25.0]


def example_inputs():
    return _night(180, SUPINE, seed=0, out_of_bed=[(100, 110)]), _patient(0, 0.5)


def dynamic_shapes():
    return ({0: Dim("minutes", min=2, max=720)}, None)


def verify_inputs():
    return [
        example_inputs(),                                   # dose-triggered turns, a bathroom break
        (_night(300, [20.0, 25.0, 29.0, 28.0, 26.0, 30.0], seed=1, noise=0.3), _patient(1, -0.5)),
        # every zone below closure pressure -> only the 2 h maximum interval triggers turns
        (torch.zeros(30, len(ZONES)), _patient(2, 0.0)),    # mattress reads nothing -> sensor fault
        (_night(720, LATERAL, seed=6, noise=0.5), _patient(6, 1.2)),   # long night: stops at the turn limit
    ]
