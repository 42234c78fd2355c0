"""Professional boxing: three ringside judges score a bout round by round.

Each judge weighs the round statistics (clean power punches, jabs, ring
generalship, defense, aggression) with a fixed criteria vector plus a small
personal-bias network, and gives the 10-point-must score (10-9, 9-10 or 10-10
for an even round) minus one point per knockdown suffered.  Rounds flagged as
not contested (knockdowns = -1, e.g. a long injury break) are skipped; three
knockdowns in one round end the bout (three-knockdown rule).
"""
import torch
import torch.nn as nn


class Judge(nn.Module):
    def __init__(self):
        super().__init__()
        self.bias_net = nn.Sequential(nn.Linear(5, 8), nn.Tanh(), nn.Linear(8, 1))
        # every judge weighs the official criteria a little differently
        base = torch.tensor([0.5, 0.15, 0.1, 0.15, 0.1])
        self.register_buffer("criteria", base * (0.5 + torch.rand(5)))

    def forward(self, stats):
        # stats: [2, 5] for the two fighters
        return (stats * self.criteria).sum(-1) + 0.2 * self.bias_net(stats / 10.0).squeeze(-1)


class BoxingScorecard(nn.Module):
    def __init__(self, n_judges=3, margin=0.4):
        super().__init__()
        self.judges = nn.ModuleList(Judge() for _ in range(n_judges))
        self.margin = margin

    def forward(self, round_stats, knockdowns):
        totals = torch.zeros(len(self.judges), 2)
        cards = []
        stopped_in = torch.tensor(-1)
        for r in range(round_stats.shape[0]):
            kd = knockdowns[r]
            if (kd < 0).any():
                continue
            if kd[0] >= 3 or kd[1] >= 3:
                stopped_in = torch.tensor(r)
                break
            scores = []
            for judge in self.judges:
                eff = judge(round_stats[r])
                diff = eff[0] - eff[1]
                if diff > self.margin:
                    s = torch.tensor([10.0, 9.0])
                elif diff < -self.margin:
                    s = torch.tensor([9.0, 10.0])
                else:
                    s = torch.tensor([10.0, 10.0])
                scores.append(s - kd.float())
            card = torch.stack(scores)
            totals = totals + card
            cards.append(card)
        cards = torch.stack(cards)
        judges_for_red = (totals[:, 0] > totals[:, 1]).sum()
        return cards, totals, judges_for_red, stopped_in


def model():
    torch.manual_seed(707)
    return BoxingScorecard().eval()


RED_ROUND = [12.0, 20.0, 40.0, 6.0, 7.0]     # red fighter's stats in a round he clearly wins
BLUE_ROUND = [4.0, 10.0, 20.0, 4.0, 4.0]
# a close round: red lands more power shots, blue jabs and defends better -> judges split
SPLIT_ROUND = [[10.0, 12.0, 25.0, 3.0, 8.0], [7.0, 18.0, 35.0, 9.0, 4.0]]


def _bout(pattern, kds):
    stats = []
    for p in pattern:
        if p == "R":
            stats.append([RED_ROUND, BLUE_ROUND])
        elif p == "B":
            stats.append([BLUE_ROUND, RED_ROUND])
        elif p == "S":
            stats.append(SPLIT_ROUND)
        else:
            stats.append([[8.0, 15.0, 30.0, 5.0, 5.0], [8.0, 15.0, 30.0, 5.0, 5.0]])
    return torch.tensor(stats), torch.tensor(kds)


def example_inputs():
    return _bout("RRBER", [[0, 0], [0, 1], [0, 0], [0, 0], [0, 0]])


def dynamic_shapes():
    r = torch.export.Dim("rounds", min=2, max=12)
    return ({0: r}, {0: r})


def verify_inputs():
    return [
        # example: red wins rounds, blue wins one, one even round, a knockdown of blue
        example_inputs(),
        # round 2 not contested (skipped via continue), then 3 knockdowns of red in
        # round 3 -> bout stopped (break)
        _bout("BEBR", [[0, 0], [-1, -1], [3, 0], [0, 0]]),
        # 12-round bout with two split rounds (judges disagree), knockdowns on both
        # sides, no stoppage
        _bout("RBSEBBRSRBRB", [[0, 0], [1, 0], [0, 0], [0, 0], [0, 0], [0, 1],
                                [0, 0], [0, 0], [0, 0], [0, 0], [0, 2], [0, 0]]),
        # second fighter (blue) knocked down three times in round 2 -> stoppage
        _bout("RR", [[0, 0], [0, 3]]),
    ]
