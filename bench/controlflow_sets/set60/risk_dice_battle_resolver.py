"""Board-game battle resolution (Risk rules): attacker rolls up to 3 dice, defender up to 2,
highest dice compared pairwise, defender wins ties. A learned commander decides after each
round whether to press on. Outcome: 1 conquered, 0 retreat, -1 attack broken, 2 out of dice."""
import torch
import torch.nn as nn
from torch.export import Dim


def occupy(att, last_dice, keep_home=1):
    """Armies moved into the conquered territory: at least the dice rolled last round."""
    movable = att - keep_home
    if movable <= last_dice:
        return movable
    return max(last_dice, movable // 2)


class BattleResolver(nn.Module):
    def __init__(self):
        super().__init__()
        self.commander = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))

    def press_on(self, att, dfn, rounds_left):
        if att > 2 * dfn:
            return True  # overwhelming odds: no need to ask
        x = torch.tensor([att, dfn, rounds_left], dtype=torch.float32) / 10.0
        odds = 4.0 * (att - dfn) / (att + dfn)  # simple force-ratio rule, learned adjustment
        return bool(odds + torch.tanh(self.commander(x)) > -0.5)

    def forward(self, attackers, defenders, dice):
        # attackers, defenders (B,) armies; dice (B, R, 5) pre-rolled: 3 attack + 2 defence
        n_rounds = dice.shape[1]
        outcome, remaining = [], []
        for b in range(attackers.shape[0]):
            att, dfn = int(attackers[b]), int(defenders[b])
            last = 0
            for r in range(n_rounds):
                if att < 2:
                    result = -1  # one army cannot attack
                    break
                if dfn == 0:
                    result = 1
                    break
                if not self.press_on(att, dfn, n_rounds - r):
                    result = 0
                    break
                last, nd = min(3, att - 1), min(2, dfn)
                a = torch.sort(dice[b, r, :last], descending=True).values
                d = torch.sort(dice[b, r, 3:3 + nd], descending=True).values
                for k in range(min(last, nd)):
                    if a[k] > d[k]:
                        dfn -= 1
                    else:
                        att -= 1
            else:
                result = 1 if dfn == 0 else (-1 if att < 2 else 2)
            if result == 1:
                moved = occupy(att, last)
                att, dfn = att - moved, moved  # defender slot now holds the occupiers
            outcome.append(torch.tensor(result))
            remaining.append(torch.tensor([att, dfn]))
        return torch.stack(outcome), torch.stack(remaining)


def model():
    torch.manual_seed(6014)
    return BattleResolver().eval()


def _battles(att, dfn, rounds, seed):
    g = torch.Generator().manual_seed(seed)
    dice = torch.randint(1, 7, (len(att), rounds, 5), generator=g)
    return torch.tensor(att), torch.tensor(dfn), dice


def example_inputs():
    return _battles([10, 3, 5], [2, 6, 5], 12, 1)


def dynamic_shapes():
    b = Dim("battles", min=2, max=16)
    return ({0: b}, {0: b}, {0: b, 1: Dim("rounds", min=2, max=30)})


def verify_inputs():
    return [
        _battles([10, 3, 5], [2, 6, 5], 12, 1),                  # example: mixed outcomes
        _battles([30, 4], [30, 1], 2, 2),                        # min: dice run out / quick win
        (torch.tensor([4, 3]), torch.tensor([4, 3]),
         torch.tensor([[[6, 6, 6, 5, 5], [5, 5, 1, 4, 4]],
                       [[6, 1, 1, 5, 3], [2, 1, 1, 3, 1]]])),  # last die decides: won / broken
        _battles([1, 2, 3, 4, 6, 8, 12, 20, 25, 3, 9, 14, 7, 5, 40, 2],
                 [1, 1, 2, 3, 4, 5, 6, 8, 10, 12, 2, 3, 7, 1, 12, 9], 30, 3),  # max
    ]
