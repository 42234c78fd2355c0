"""Clear-aligner treatment staging.

Teeth are given along the arch by their mesio-distal centre position (mm),
target position after treatment, crown width and remaining rotation (deg).  Each
aligner stage may translate a tooth by at most 0.25 mm and rotate it by at most
2 deg.  Teeth are moved one by one inside a stage; a move that would push a
tooth into its neighbour is halved, or deferred to a later stage.  Planning
stops when everything is in place, when a stage makes no progress (the case
needs IPR / extraction), or at the stage limit.  A small learned model scores
the expected discomfort of every stage.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class AlignerStager(nn.Module):
    def __init__(self, max_step=0.25, max_rot=2.0, max_stages=40):
        super().__init__()
        self.max_step = max_step
        self.max_rot = max_rot
        self.max_stages = max_stages
        self.min_gap = 0.04        # mm of interproximal clearance
        self.discomfort = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))

    def contact_gap(self, a, wa, b, wb):
        return (b - wb / 2) - (a + wa / 2)

    def fits(self, p, width, i, x):
        if i > 0 and self.contact_gap(p[i - 1], width[i - 1], x, width[i]) < self.min_gap:
            return False
        if i < p.shape[0] - 1 and self.contact_gap(x, width[i], p[i + 1], width[i + 1]) < self.min_gap:
            return False
        return True

    def forward(self, pos, target, width, rot):
        p = pos.clone()
        rot_left = rot.clone()
        stages, stats = [], []
        n_stage = 0
        while ((target - p).abs() > 0.01).any() or (rot_left.abs() > 0.5).any():
            if n_stage >= self.max_stages:
                break
            new_p = p.clone()
            moved = torch.zeros_like(p, dtype=torch.bool)
            for i in range(p.shape[0]):
                r = target[i] - new_p[i]
                if r.abs() <= 0.01:
                    continue
                step = r.clamp(-self.max_step, self.max_step)
                if not self.fits(new_p, width, i, new_p[i] + step):
                    step = step / 2
                    if not self.fits(new_p, width, i, new_p[i] + step):
                        continue                      # blocked this stage
                new_p[i] = new_p[i] + step
                moved[i] = True
            rot_step = rot_left.clamp(-self.max_rot, self.max_rot)
            rot_step = torch.where(rot_left.abs() > 0.5, rot_step, torch.zeros_like(rot_step))
            if not moved.any() and (rot_step == 0).all():
                break                                 # stalled: needs space (IPR) first
            rot_left = rot_left - rot_step
            delta = (new_p - p).abs()
            stats.append(torch.stack([delta.max() / self.max_step, delta.sum(),
                                      rot_step.abs().max() / self.max_rot]))
            p = new_p
            stages.append(p)
            n_stage += 1
        if not stages:
            return pos.new_zeros(0, pos.shape[0]), pos.new_zeros(0), rot_left
        score = torch.sigmoid(self.discomfort(torch.stack(stats)))[:, 0]
        return torch.stack(stages), score, rot_left


def model():
    torch.manual_seed(9)
    return AlignerStager().eval()


def example_inputs():
    # six anterior teeth (mm, multiples of 1/16): midline shift of 0.75 mm to the right,
    # a 1 mm space distal to tooth 0 to close, canine derotations
    pos = torch.tensor([-15.0625, -8.4375, -2.8125, 2.8125, 8.4375, 14.0625])
    target = torch.tensor([-13.3125, -7.6875, -2.0625, 3.5625, 9.1875, 14.8125])
    width = torch.full((6,), 5.5)
    rot = torch.tensor([0.0, 0.0, 3.0, 0.0, 0.0, -9.0])
    return pos, target, width, rot


def dynamic_shapes():
    n = Dim("teeth", min=2, max=32)
    return {0: n}, {0: n}, {0: n}, {0: n}


def verify_inputs():
    pos, _, width, _ = example_inputs()
    return [
        example_inputs(),                                                  # wave of blocked / halved moves, rotations
        (pos, pos.clone(), width, torch.zeros(6)),                         # already finished: while never runs, no stages
        (torch.tensor([0.0, 6.0]), torch.tensor([0.5, 5.5]),
         torch.tensor([5.5, 5.5]), torch.tensor([0.0, 0.0])),              # two teeth pushed together -> stalled break
        (torch.tensor([0.0, 7.0, 14.0]), torch.tensor([0.0, 7.0, 14.0]),
         torch.tensor([6.0, 6.0, 6.0]), torch.tensor([5.0, 0.0, -3.0])),   # rotation only (or-branch of the loop condition)
        (torch.tensor([0.0, 6.5]), torch.tensor([0.1875, 6.3125]),
         torch.tensor([5.5, 5.5]), torch.tensor([0.0, 0.0])),              # one stage: both reach target at once
        (torch.tensor([0.0, 6.25, 20.0]), torch.tensor([12.0, 6.25, 31.0]),
         torch.tensor([5.5, 5.5, 5.5]), torch.tensor([0.0, 0.0, 0.0])),    # long moves, tooth 0 blocked -> 40-stage limit
    ]
