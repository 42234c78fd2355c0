"""Automated perimetry (visual-field test): a 4-2 dB staircase at each test
location, seeded from the previous location's threshold, skipping locations
with fixation loss and flagging absolute defects."""
import torch
import torch.nn as nn
from torch.export import Dim


class StaircasePerimeter(nn.Module):
    def __init__(self, start_db=30.0, max_db=40.0, max_presentations=12):
        super().__init__()
        self.start_db = start_db
        self.max_db = max_db
        self.max_presentations = max_presentations
        # age-normal hill of vision correction (small learned offset per location type)
        self.normal = nn.Linear(2, 1)

    def seen(self, level_db, sensitivity_db):
        # higher dB = dimmer stimulus; the patient sees it if it is below their sensitivity
        return level_db <= sensitivity_db

    def staircase(self, sensitivity, start):
        level = start.clone()
        step = 4.0
        prev = self.seen(level, sensitivity)
        last_seen = torch.tensor(-1.0)
        if prev:
            last_seen = level
        reversals = 0
        presentations = 1
        while reversals < 2 and presentations < self.max_presentations:
            level = (level + step if prev else level - step).clamp(0.0, self.max_db)
            resp = self.seen(level, sensitivity)
            presentations += 1
            if resp:
                last_seen = level
            if resp != prev:
                reversals += 1
                step = 2.0
            elif level < 1.0 or level > self.max_db - 1.0:
                break  # hit the instrument limits
            prev = resp
        return last_seen

    def forward(self, sensitivity, fixation_loss, ecc):
        # sensitivity: [L] true retinal sensitivity (dB), fixation_loss: [L] 0/1,
        # ecc: [L, 2] location coordinates (degrees)
        thresholds = []
        for i in range(sensitivity.shape[0]):
            if fixation_loss[i] > 0.5:
                thresholds.append(torch.tensor(-1.0))  # unreliable: not tested
                continue
            tested = [t for t in thresholds if t > 0]
            start = tested[-1] if len(tested) > 0 else torch.tensor(self.start_db)
            t = self.staircase(sensitivity[i], start)
            if t < -0.5:
                t = torch.tensor(0.0)  # absolute scotoma: never seen even at 0 dB
            thresholds.append(t)
        th = torch.stack(thresholds)
        norm = 30.0 + self.normal(ecc / 30.0).squeeze(1)
        return th, th - norm


def model():
    torch.manual_seed(4912)
    return StaircasePerimeter().eval()


def _field(sens, fix=None, seed=0):
    sens = torch.tensor(sens, dtype=torch.float32)
    L = sens.shape[0]
    fix = torch.zeros(L) if fix is None else torch.tensor(fix, dtype=torch.float32)
    g = torch.Generator().manual_seed(seed)
    return sens, fix, 30.0 * torch.rand(L, 2, generator=g) - 15.0


def example_inputs():
    # mixed field: normal, depressed, one scotoma, one fixation loss
    return _field([31.3, 27.7, 33.1, 19.5, 0.0 - 3.3, 28.9, 38.9, 24.1],
                  [0, 0, 0, 0, 0, 1, 0, 0], seed=1)


def dynamic_shapes():
    l = Dim("locations", min=2, max=54)
    return ({0: l}, {0: l}, {0: l})


def verify_inputs():
    g = torch.Generator().manual_seed(121)
    sens = (torch.rand(54, generator=g) * 38.0).floor() + 0.5
    fix = (torch.rand(54, generator=g) < 0.1).float()
    return [
        example_inputs(),
        _field([45.5, 44.3], seed=2),          # supernormal: climbs to 40 dB limit (break)
        _field([-2.5, -6.5], seed=3),          # blind: descends to 0 dB limit, never seen
        _field([13.1, 12.9, 30.3], [1, 0, 0], seed=4),  # first location skipped; far start
        (sens, fix, 30.0 * torch.rand(54, 2, generator=g) - 15.0),  # full 24-2 grid
    ]
