"""Show-jumping round scorer (FEI Table A) with an automatic style estimate.

Each obstacle reports what the arena sensors saw: how far the top pole was
displaced (cm, a displaced pole falls past ~2 cm), the number of refusals at
that obstacle, whether a hoof landed in the water and whether horse or rider
fell.  Knock-downs, refusals and water faults cost 4 faults each, a second
refusal in the round or a fall eliminates, and every commenced second over the
time allowed costs one time fault.  A small network rates the rhythm of the
round from the same sensor rows.
"""
import torch
import torch.nn as nn


class JumpingFaultScorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.style = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
        self.knockdown_cm = 2.0

    def obstacle_faults(self, drop, refusals, water):
        faults = torch.zeros(())
        if refusals > 0:
            faults = faults + 4.0
        if drop > self.knockdown_cm:
            faults = faults + 4.0
        if water > 0:
            faults = faults + 4.0
        return faults

    def forward(self, obstacles, times):
        # obstacles: (J, 4) drop_cm, refusals, water, fall; times: (2,) ride s, allowed s
        per_obstacle = []
        refusals_so_far = torch.zeros(())
        eliminated = torch.tensor(0)
        for j in range(obstacles.shape[0]):
            drop, refusals, water, fall = obstacles[j, 0], obstacles[j, 1], obstacles[j, 2], obstacles[j, 3]
            refusals_so_far = refusals_so_far + refusals
            if fall > 0 or refusals_so_far >= 2:
                eliminated = torch.tensor(1)
                break
            per_obstacle.append(self.obstacle_faults(drop, refusals, water))
        jumped = torch.stack(per_obstacle) if per_obstacle else torch.zeros(1)

        over = times[0] - times[1]
        time_faults = torch.ceil(over).clamp(min=0.0) if over > 0 else torch.zeros(())
        total = jumped.sum() + time_faults

        rhythm = torch.sigmoid(self.style(obstacles / torch.tensor([5.0, 1.0, 1.0, 1.0]))).mean()
        return total.reshape(1), eliminated, rhythm.reshape(1) * 10.0


def model():
    torch.manual_seed(5607)
    return JumpingFaultScorer().eval()


def _round(n, seed):
    g = torch.Generator().manual_seed(seed)
    drop = 1.5 * torch.rand(n, generator=g)          # rubs, nothing falls
    zeros = torch.zeros(n)
    return torch.stack([drop, zeros, zeros, zeros], dim=1)


def example_inputs():
    r = _round(12, 1)
    r[4, 0] = 6.3      # rail down at fence 5
    r[8, 2] = 1.0      # foot in the water at fence 9
    return (r, torch.tensor([74.2, 76.0]))


def dynamic_shapes():
    j = torch.export.Dim("obstacles", min=2, max=24)
    return ({0: j}, None)


def verify_inputs():
    refusal_then_clear = _round(2, 2)
    refusal_then_clear[0, 1] = 1.0
    second_refusal = _round(14, 3)
    second_refusal[3, 1] = 1.0
    second_refusal[9, 1] = 1.0
    fall_first = _round(5, 4)
    fall_first[0, 3] = 1.0
    return [
        # 12 fences, one rail + water (8 faults), inside the time -> finished
        example_inputs(),
        # min 2 fences, one refusal (4) and 3.4 s over -> 4 time faults
        (refusal_then_clear, torch.tensor([61.4, 58.0])),
        # 14 fences, second refusal at fence 10 -> eliminated, loop broken
        (second_refusal, torch.tensor([90.0, 88.0])),
        # fall at the first fence -> eliminated before any obstacle scored
        (fall_first, torch.tensor([10.0, 70.0])),
        # max 24 fences (a Puissance-length course), clear inside the time
        (_round(24, 5), torch.tensor([95.5, 99.0])),
    ]
