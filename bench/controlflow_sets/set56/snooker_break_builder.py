"""Snooker break simulator for a coaching app.

The player's planned sequence of shots is given as (cut angle in degrees,
distance to the pocket in metres).  A shot goes in when the pot model (a
physical difficulty curve plus a small learned player-specific correction)
gives more than 50 %.  The break follows the rules: a red, then a colour, while
reds remain; the colour taken depends on how thin the cut is; with no reds left
the colours are cleared in order yellow to black.  The break ends at the first
miss, when the planned shots run out, or when the table is cleared.
"""
import torch
import torch.nn as nn

ON_RED, ON_COLOUR, CLEARANCE = 0, 1, 2
CLEARANCE_ORDER = [2, 3, 4, 5, 6, 7]        # yellow, green, brown, blue, pink, black


class PotModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.player = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, shot):
        angle, dist = shot[0], shot[1]
        logit = 4.0 - 0.07 * angle - 0.6 * dist
        logit = logit + 0.5 * torch.tanh(self.player(shot / torch.tensor([90.0, 3.0])))[0]
        return torch.sigmoid(logit)


class BreakBuilder(nn.Module):
    def __init__(self):
        super().__init__()
        self.pot = PotModel()

    def pots(self, shot):
        return self.pot(shot) > 0.5

    def colour_value(self, angle):
        if angle < 15.0:
            return 7        # straight enough to stay on the black
        elif angle < 25.0:
            return 6
        return 5

    def colour_after_red(self, shot):
        return self.colour_value(shot[0])

    def forward(self, shots, reds_left):
        # shots: (K, 2) cut angle deg, distance m; reds_left: (1,) int64
        reds = int(reds_left.item())
        state = ON_RED if reds > 0 else CLEARANCE
        n_shots = shots.shape[0]
        points = []
        next_colour = 0
        shot = 0
        while shot < n_shots and self.pots(shots[shot]):
            if state == ON_RED:
                value = 1
                reds -= 1
                state = ON_COLOUR
            elif state == ON_COLOUR:
                value = self.colour_after_red(shots[shot])
                state = ON_RED if reds > 0 else CLEARANCE
            else:
                value = CLEARANCE_ORDER[next_colour]
                next_colour += 1
            points.append(value)
            shot += 1
            if state == CLEARANCE and next_colour == len(CLEARANCE_ORDER):
                break       # table cleared
        per_shot = torch.zeros(n_shots)
        if points:
            per_shot[:len(points)] = torch.tensor(points, dtype=torch.float32)
        return per_shot.sum().reshape(1), torch.tensor(shot), per_shot, torch.tensor(state)


def model():
    torch.manual_seed(5620)
    return BreakBuilder().eval()


def _plan(k, seed, hard_at=None):
    g = torch.Generator().manual_seed(seed)
    angle = 5.0 + 30.0 * torch.rand(k, generator=g)
    dist = 0.3 + 0.9 * torch.rand(k, generator=g)
    plan = torch.stack([angle, dist], dim=1)
    if hard_at is not None:
        plan[hard_at] = torch.tensor([75.0, 2.8])      # long thin cut: missed
    return plan


def example_inputs():
    return (_plan(20, 1, hard_at=13), torch.tensor([15]))


def dynamic_shapes():
    k = torch.export.Dim("shots", min=2, max=40)
    return ({0: k}, None)


def verify_inputs():
    return [
        # 20 planned shots, 15 reds: red/colour alternation (black, pink, blue), miss at shot 14
        example_inputs(),
        # min 2 shots, first one a long thin cut -> missed, break of 0
        (_plan(2, 2, hard_at=0), torch.tensor([15])),
        # max 40 shots, all makeable: 15 reds + colours, then the clearance -> table cleared
        (_plan(40, 3), torch.tensor([15])),
        # 5 shots with 1 red left: red, colour, then clearance until the plan runs out
        (_plan(5, 4), torch.tensor([1])),
        # 8 shots with no reds: clearance straight away, cleared after six colours
        (_plan(8, 5), torch.tensor([0])),
    ]
