"""Spirometry manoeuvre grading: FVC / FEV1 / ratio plus ATS-style acceptability
checks and an interpretation pattern.

volume: cumulative exhaled volume in litres sampled at 50 Hz (dynamic length).
demo:   [age years, height cm, sex (1 male / 0 female)].
Returns [fvc, fev1, fev1/fvc, percent predicted FVC, pattern code] where the
pattern code is 0 normal, 1 restrictive, 2 obstructive, 3 mixed,
4 unacceptable (no plateau), 5 unacceptable (poor start), -1 too short.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class SpirometryGrader(nn.Module):
    def __init__(self, fs=50):
        super().__init__()
        self.fs = fs
        # small learned correction on top of a linear reference equation
        self.correction = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))

    def predicted_fvc(self, demo):
        age, height, sex = demo[0], demo[1], demo[2]
        base = 0.052 * height - 0.022 * age - 3.6 + 0.6 * sex
        z = torch.stack([age / 100, height / 200, sex])
        return base + 0.1 * torch.tanh(self.correction(z)).squeeze(-1)

    def forward(self, volume, demo):
        fs = self.fs
        if volume.shape[0] < fs:
            # less than one second recorded: cannot even compute FEV1
            return torch.tensor([0.0, 0.0, 0.0, 0.0, -1.0])

        fvc = volume.max()
        fev1 = volume[fs - 1]
        ratio = fev1 / fvc.clamp_min(1e-3)
        pct = fvc / self.predicted_fvc(demo)

        # start of test: back-extrapolated volume and time to peak flow
        flow = (volume[1:] - volume[:-1]) * fs
        i_peak = flow.argmax()
        t_peak = i_peak.float() / fs
        bev = volume[i_peak] - flow[i_peak] * t_peak

        # end of test: plateau over the last second, or at least 6 s of exhalation
        tail = volume[-fs:]
        plateau = (tail.max() - tail.min()) < 0.025
        long_enough = volume.shape[0] >= 6 * fs

        if t_peak > 0.12 or bev > 0.15:
            code = 5.0
        elif not (plateau or long_enough):
            code = 4.0
        elif ratio < 0.7 and pct < 0.8:
            code = 3.0
        elif ratio < 0.7:
            code = 2.0
        elif pct < 0.8:
            code = 1.0
        else:
            code = 0.0
        return torch.stack([fvc, fev1, ratio, pct, torch.tensor(code)])


def model():
    torch.manual_seed(7)
    return SpirometryGrader().eval()


def _blow(seconds, fvc, tau, delay=0.0, fs=50):
    t = torch.arange(int(seconds * fs), dtype=torch.float32) / fs
    ramp = torch.clamp((t - delay) / 0.3, 0.0, 1.0) if delay > 0 else torch.ones_like(t)
    v = fvc * (1 - torch.exp(-torch.clamp(t - delay, min=0.0) / tau)) * ramp
    return v


MALE = torch.tensor([45.0, 178.0, 1.0])     # predicted FVC about 4.9 L
FEMALE = torch.tensor([62.0, 160.0, 0.0])   # predicted FVC about 3.3 L


def example_inputs():
    return (_blow(7.0, 4.8, 0.45), MALE)


def dynamic_shapes():
    return ({0: Dim("samples", min=2, max=600)}, None)


def verify_inputs():
    return [
        example_inputs(),                      # normal, long enough: code 0
        (_blow(0.6, 2.0, 0.5), MALE),          # < 1 s of data: early return (-1)
        (_blow(8.0, 4.6, 1.6), MALE),          # slow emptying, ratio < 0.7, FVC ok: obstructive (2)
        (_blow(7.0, 2.3, 0.4), FEMALE),        # FVC well below predicted, ratio high: restrictive (1)
        (_blow(8.0, 2.2, 1.5), FEMALE),        # low FVC and low ratio: mixed (3)
        (_blow(3.0, 4.5, 1.4), MALE),          # 3 s, still rising: no plateau, not 6 s: code 4
        (_blow(4.0, 3.0, 0.35), FEMALE),       # 4 s with plateau: end-of-test OK via plateau, normal
        (_blow(7.0, 4.5, 0.5, delay=0.4), MALE),  # hesitant start: late peak flow: code 5
        (_blow(7.0, 4.2, 0.5) + 0.3, MALE),    # peak flow on time but 0.3 L back-extrapolated volume: code 5
    ]
