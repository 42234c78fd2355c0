"""Audiology: grade hearing loss per ear from a pure-tone audiogram, flag asymmetry, classify its shape.

Kind T. Constructs: 1, 2, 3, 7, 8, 9.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class AudiogramGrader(nn.Module):
    def __init__(self, scheme="who2021", pta_points=4, asym_db=15.0):
        super().__init__()
        self.scheme = scheme
        self.pta_points = pta_points  # 0.5, 1, 2, 4 kHz
        self.asym_db = asym_db
        # flat / sloping / noise-notch configuration of the better ear
        self.shape_net = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 3))

    def _pta(self, thr):
        if thr.shape[0] >= self.pta_points:
            return thr[: self.pta_points].mean()
        return thr.mean()

    def _grade(self, pta):
        if self.scheme == "who2021":  # static
            cuts = (20.0, 35.0, 50.0, 65.0, 80.0)
        else:
            cuts = (25.0, 40.0, 55.0, 70.0, 90.0)
        if pta < cuts[0]:
            return torch.zeros_like(pta)  # normal
        elif pta < cuts[1]:
            return torch.full_like(pta, 1.0)  # mild
        elif pta < cuts[2]:
            return torch.full_like(pta, 2.0)  # moderate
        elif pta < cuts[3]:
            return torch.full_like(pta, 3.0)  # moderately severe
        elif pta < cuts[4]:
            return torch.full_like(pta, 4.0)  # severe
        return torch.full_like(pta, 5.0)  # profound

    def forward(self, left, right):
        pta_l, pta_r = self._pta(left), self._pta(right)
        grade_l, grade_r = self._grade(pta_l), self._grade(pta_r)

        diff = (left - right).abs()
        refer = torch.zeros_like(pta_l)
        if diff.max() >= self.asym_db and (diff >= self.asym_db).sum() >= 2:
            refer = torch.ones_like(refer)  # asymmetric: retrocochlear work-up
        elif grade_l > 3.5 or grade_r > 3.5:
            refer = torch.full_like(refer, 2.0)  # severe: implant candidacy

        better = left if pta_l <= pta_r else right
        curve = F.interpolate(better[None, None], size=8, mode="linear", align_corners=True)[0, 0]
        shape_logits = self.shape_net(curve / 100.0)
        return torch.stack([grade_l, grade_r]), refer, shape_logits


def model():
    torch.manual_seed(36007)
    return AudiogramGrader().eval()


def _ag(*vals):
    return torch.tensor(vals, dtype=torch.float32)


def example_inputs():
    # 6 frequencies (0.5-16 kHz); mild left (PTA 27.5), normal right (12.5) -> right is better ear
    return (_ag(20, 25, 30, 35, 50, 60), _ag(10, 10, 15, 15, 30, 40))


def dynamic_shapes():
    freqs = torch.export.Dim("freqs", min=2, max=11)
    return ({0: freqs}, {0: freqs})


def verify_inputs():
    return [
        example_inputs(),                                        # mild / normal; diff >= 15 at 3 freqs -> refer 1; right ear better
        (_ag(40, 45, 40, 40, 55), _ag(40, 40, 45, 45, 60)),      # moderate both (41.25 / 42.5), symmetric, no refer; left better
        (_ag(55, 60, 60, 55), _ag(60, 55, 60, 60)),              # moderately severe both (57.5 / 58.75), no refer
        (_ag(70, 70, 75, 70, 85), _ag(65, 70, 70, 75, 80)),      # severe both (71.25 / 70) -> refer 2 via 1st `or` operand
        (_ag(60, 60, 65, 60), _ag(70, 70, 75, 70)),              # left mod-severe, right severe (71.25) -> refer 2 via 2nd operand
        (_ag(20, 30, 40, 45, 60), _ag(85, 90, 95, 95, 100)),     # profound right, big asymmetry -> refer 1
        (_ag(30, 20, 15), _ag(5, 20, 20)),                       # 3 freqs (< 4: mean of all); one diff >= 15 only -> no asymmetry
        (_ag(10, 15), _ag(15, 20)),                              # 2 freqs, both normal, small differences
    ]
