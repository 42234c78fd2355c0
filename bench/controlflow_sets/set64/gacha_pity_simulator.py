"""Gacha banner simulator with soft/hard pity and a 50/50 featured guarantee.

Given pre-drawn uniform numbers for each pull (rarity roll and featured coin),
replay a player's pulls on a limited banner until they own the requested
number of copies of the featured 5-star, or run out of pulls.  Rules:
  * 5-star base rate 0.6%, rising 6% per pull from pull 74 (soft pity),
    guaranteed on pull 90 (hard pity);
  * 4-star base rate 5.1%, guaranteed at least every 10 pulls;
  * a 5-star is the featured one on a coin flip; losing the flip makes the
    next 5-star featured for sure.
Returns the rarity history (variable length), copies obtained and pulls used.
"""
import torch
import torch.nn as nn


class PityState:
    def __init__(self):
        self.since_5 = 0
        self.since_4 = 0
        self.guaranteed = torch.tensor(False)


class GachaBanner(nn.Module):
    def __init__(self, base5=0.006, soft_from=74, soft_step=0.06, hard=90, base4=0.051, pity4=10):
        super().__init__()
        self.base5 = base5
        self.soft_from = soft_from
        self.soft_step = soft_step
        self.hard = hard
        self.base4 = base4
        self.pity4 = pity4

    def _rate5(self, pull_no):
        if pull_no >= self.hard:
            return 1.0
        if pull_no >= self.soft_from:
            return min(1.0, self.base5 + self.soft_step * (pull_no - self.soft_from + 1))
        return self.base5

    def _five_star(self, coin, state):
        state.since_5 = 0
        state.since_4 = 0
        if state.guaranteed or coin < 0.5:
            state.guaranteed = torch.tensor(False)
            return torch.tensor(5), 1
        state.guaranteed = torch.tensor(True)
        return torch.tensor(5), 0         # off-banner 5-star

    def forward(self, rolls, coins, wanted):
        state = PityState()
        history = []
        copies = torch.zeros((), dtype=torch.long)
        for i in range(rolls.shape[0]):
            p5 = self._rate5(state.since_5 + 1)
            r = rolls[i]
            if r < p5:
                rarity, featured = self._five_star(coins[i], state)
                copies = copies + featured
                history.append(rarity * 10 + featured)   # 51 = featured 5*, 50 = lost 50/50
                if copies >= wanted:
                    break
                continue
            state.since_5 += 1
            if r < p5 + self.base4 or state.since_4 + 1 >= self.pity4:
                state.since_4 = 0
                history.append(torch.tensor(40))
            else:
                state.since_4 += 1
                history.append(torch.tensor(30))
        return torch.stack(history), copies, torch.tensor(len(history))


def model():
    torch.manual_seed(64)
    return GachaBanner().eval()


MISS, FOUR, HIT = 0.99, 0.03, 0.001
WIN, LOSE = 0.2, 0.8


def _pulls(pattern, coin_pattern, n):
    """pattern: dict pull_index -> roll; every other pull misses."""
    rolls = torch.full((n,), MISS)
    coins = torch.full((n,), WIN)
    for i, r in pattern.items():
        rolls[i] = r
    for i, c in coin_pattern.items():
        coins[i] = c
    return rolls, coins


def example_inputs():
    rolls, coins = _pulls({3: FOUR, 20: HIT, 45: HIT}, {20: LOSE}, 60)
    return rolls, coins, torch.tensor(1)


def dynamic_shapes():
    n = torch.export.Dim("pulls", min=2, max=400)
    return ({0: n}, {0: n}, None)


def verify_inputs():
    r_soft, c_soft = _pulls({}, {}, 120)
    r_soft[77] = 0.2      # pull 78: p5 = 0.006 + 0.06*5 = 0.306 -> soft-pity 5-star
    return [
        example_inputs(),                                  # 4*, 10-pull pity, lost 50/50 (continue), guaranteed win -> break
        (*_pulls({}, {}, 200), torch.tensor(2)),           # only misses: 4* pity every 10, hard pity at pull 90 twice (coin wins), break on 2nd
        (r_soft, c_soft, torch.tensor(3)),                 # soft pity 5-star, never reaches 3 copies: loop exhausts
        (*_pulls({0: HIT, 1: HIT}, {0: LOSE, 1: LOSE}, 5), torch.tensor(1)),  # lose 50/50, then guaranteed (coin says lose but guarantee wins)
        (*_pulls({1: FOUR}, {}, 2), torch.tensor(1)),      # two pulls: miss (3*), 4*
    ]
