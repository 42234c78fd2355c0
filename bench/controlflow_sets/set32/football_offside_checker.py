"""Semi-automated offside check from tracked player positions.

Kind T. Constructs: 1, 2, 5, 6, 7, 8.
Player and ball detections arrive in camera-calibrated image coordinates;
a per-stadium linear calibration maps them onto pitch metres (attack
towards +x, halfway line at x = 52.5).  The offside line is the
second-last defender (or the ball if it is further forward).  When the
broadcast camera has cropped the goalkeeper (fewer than 11 defenders
tracked) the keeper is assumed to stand on the goal line.
"""
import torch
import torch.nn as nn

PITCH_LENGTH = 105.0
HALFWAY = PITCH_LENGTH / 2


def offside_line(def_x, ball_x):
    if def_x.shape[0] < 11:
        # keeper out of frame: put him on his goal line
        def_x = torch.cat([def_x, def_x.new_full((1,), PITCH_LENGTH)])
    second_last = torch.topk(def_x, 2).values[1]
    line = torch.maximum(second_last, ball_x)
    if line < HALFWAY:
        line = line.new_tensor(HALFWAY)  # nobody is offside in his own half
    return line


class OffsideChecker(nn.Module):
    def __init__(self, tolerance_m=0.1):
        super().__init__()
        self.tolerance_m = tolerance_m
        self.calib = nn.Linear(2, 2)
        with torch.no_grad():
            self.calib.weight.copy_(torch.eye(2) + 0.002 * torch.randn(2, 2))
            self.calib.bias.copy_(0.05 * torch.randn(2))

    def forward(self, attackers, defenders, ball):
        att = self.calib(attackers)
        dfn = self.calib(defenders)
        b = self.calib(ball)
        line = offside_line(dfn[:, 0], b[0])

        flags, margins = [], []
        for i in range(att.shape[0]):
            x = att[i, 0]
            if x <= HALFWAY:
                flags.append(torch.zeros(()))
                margins.append(torch.zeros(()))
                continue
            margin = x - line
            if margin > self.tolerance_m:
                flags.append(torch.ones(()))
            else:
                flags.append(torch.zeros(()))
            margins.append(margin.clamp(min=0.0))
        return torch.stack(flags), torch.stack(margins), line


def model():
    torch.manual_seed(3203)
    return OffsideChecker().eval()


def _pos(xs, ys):
    return torch.stack([torch.tensor(xs, dtype=torch.float32), torch.tensor(ys, dtype=torch.float32)], 1)


def example_inputs():
    # 11 defenders incl. keeper, high line at ~80 m; one attacker clearly beyond it
    att = _pos([40.0, 70.0, 84.0, 78.5], [30.0, 10.0, 40.0, 55.0])
    dfn = _pos([101.0, 80.0, 79.0, 81.0, 76.0, 70.0, 65.0, 60.0, 55.0, 58.0, 45.0],
               [34.0, 20.0, 30.0, 45.0, 50.0, 10.0, 34.0, 20.0, 40.0, 60.0, 30.0])
    return att, dfn, torch.tensor([60.0, 30.0])


def dynamic_shapes():
    a = torch.export.Dim("attackers", min=2, max=11)
    d = torch.export.Dim("defenders", min=2, max=11)
    return ({0: a}, {0: d}, None)


def verify_inputs():
    return [
        example_inputs(),  # 11 defenders (no keeper insert); own-half continue, offside and onside attackers
        # 5 defenders tracked -> keeper inserted; ball ahead of everyone -> line = ball
        (_pos([90.0, 93.0], [20.0, 40.0]),
         _pos([85.0, 88.0, 70.0, 62.0, 60.0], [30.0, 20.0, 40.0, 50.0, 34.0]),
         torch.tensor([95.0, 30.0])),
        # deep defence in own half: line clamped to halfway, attacker at 55 m offside
        (_pos([55.0, 45.0, 30.0], [30.0, 20.0, 40.0]),
         _pos([40.0, 35.0, 30.0, 20.0], [34.0, 20.0, 40.0, 50.0]),
         torch.tensor([20.0, 30.0])),
        # everyone in own half: every iteration takes 'continue'
        (_pos([30.0, 20.0, 10.0, 48.0, 50.0, 44.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]),
         _pos([60.0, 65.0], [30.0, 40.0]),
         torch.tensor([25.0, 30.0])),
        # attacker level-ish (inside tolerance) -> onside, no continue taken
        (_pos([70.02, 66.0], [30.0, 20.0]),
         _pos([100.0, 70.0, 64.0, 55.0, 61.0, 63.0, 58.0, 57.0, 53.0, 54.0, 56.0],
              [34.0, 20.0, 30.0, 45.0, 50.0, 10.0, 34.0, 20.0, 40.0, 60.0, 30.0]),
         torch.tensor([60.0, 30.0])),
    ]
