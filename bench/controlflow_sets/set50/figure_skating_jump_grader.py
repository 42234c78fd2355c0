"""Technical panel helper for figure-skating jump elements (ISU-style).

Per jump: planned rotations, rotations measured by the tracking system, air
time, landing quality, take-off edge error and a combination flag.  Rotation
calls: downgraded (< planned - 1/2 rev) scores the base value of one rotation
less, under-rotated (< planned - 1/4 rev) scores 80 % of the base value.
A learned head proposes the grade of execution (GOE, -5..+5); falls get -5
and a one point deduction.  Jumps in the second half of the programme get
the 10 % bonus.
"""
import torch
import torch.nn as nn


class JumpGrader(nn.Module):
    def __init__(self):
        super().__init__()
        # base values for single .. quad (toe loop-like scale), index 0 unused
        self.register_buffer("base_value", torch.tensor([0.0, 0.4, 1.3, 4.2, 9.5]))
        self.goe_head = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
        self.second_half_bonus = 1.1

    def goe(self, jump):
        return 5.0 * torch.tanh(self.goe_head(jump[2:6])).squeeze()

    def forward(self, jumps):
        n = jumps.shape[0]
        scores = []
        deductions = torch.zeros(())
        for j in range(n):
            planned = int(jumps[j, 0].item())
            measured = jumps[j, 1]
            if measured < planned - 0.5:
                base = self.base_value[planned - 1]          # downgraded
            elif measured < planned - 0.25:
                base = 0.8 * self.base_value[planned]        # under-rotated
            else:
                base = self.base_value[planned]

            if jumps[j, 3] < 0.2:                            # fall on landing
                grade = torch.tensor(-5.0)
                deductions = deductions + 1.0
            else:
                grade = self.goe(jumps[j])

            value = base + 0.1 * grade * base
            if j >= n // 2:
                value = value * self.second_half_bonus
            scores.append(value)
        element_scores = torch.stack(scores)
        return element_scores, element_scores.sum() - deductions


def model():
    torch.manual_seed(510)
    return JumpGrader().eval()


def _jump(planned, measured, air=0.6, landing=0.8, edge=0.1, combo=0.0):
    return [float(planned), measured, air, landing, edge, combo]


def example_inputs():
    return (torch.tensor([
        _jump(3, 3.0), _jump(2, 1.4), _jump(4, 3.7, landing=0.1), _jump(3, 2.9, combo=1.0),
    ]),)


def dynamic_shapes():
    return ({0: torch.export.Dim("jumps", min=2, max=16)},)


def verify_inputs():
    free_skate = torch.tensor([_jump(1 + (k % 4), 1 + (k % 4) - 0.1 * (k % 7), landing=0.15 + 0.1 * (k % 8))
                               for k in range(16)])
    return [
        example_inputs(),                                     # clean, downgraded, under-rotated + fall, combo
        (torch.tensor([_jump(2, 2.0), _jump(3, 3.0)]),),      # short programme fragment, all clean
        (free_skate,),                                        # 16 jumps: every call, falls, second-half bonus
    ]
