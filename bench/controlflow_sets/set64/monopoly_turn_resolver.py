"""Board-game engine: resolve a solo Monopoly-style player's turns from dice rolls.

The engine replays pre-rolled dice (one row per throw) until the rolls run
out or the player is bankrupt.  It implements doubles (roll again), three
doubles in a row -> jail, the go-to-jail square, jail (leave on doubles or
pay the fine after the third failed attempt), passing GO, tax squares and
rent on owned-by-others streets.  Returns final cash, position, number of
completed turns and a square-visit histogram used by the bot's evaluator.
"""
import torch
import torch.nn as nn

JAIL, GO_TO_JAIL, INCOME_TAX, LUXURY_TAX = 10, 30, 4, 38


class MonopolySolo(nn.Module):
    def __init__(self, salary=200, jail_fine=50):
        super().__init__()
        self.salary = salary
        self.jail_fine = jail_fine
        g = torch.Generator().manual_seed(64)
        rent = torch.randint(2, 50, (40,), generator=g)
        for free in (0, 2, 7, 10, 17, 20, 22, 30, 33, 36):   # GO, chests, chances, jail, parking
            rent[free] = 0
        rent[INCOME_TAX], rent[LUXURY_TAX] = 0, 0
        self.register_buffer("rent", rent)

    def _landing_cost(self, pos, cash):
        if pos == INCOME_TAX:
            return torch.minimum(torch.tensor(200), cash // 10)
        if pos == LUXURY_TAX:
            return torch.tensor(100)
        return self.rent[pos]

    def forward(self, dice, cash):
        pos = torch.tensor(0)
        in_jail = torch.tensor(False)
        jail_tries = 0
        streak = 0
        turns = 0
        visits = torch.zeros(40, dtype=torch.long)
        i = 0
        while i < dice.shape[0] and cash > 0:
            d1, d2 = dice[i, 0], dice[i, 1]
            i += 1
            doubles = d1 == d2
            if in_jail:
                if doubles or jail_tries == 2:
                    if not doubles:
                        cash = cash - self.jail_fine
                    in_jail = torch.tensor(False)
                    jail_tries = 0
                else:
                    jail_tries += 1
                    turns += 1
                    continue
            elif doubles:
                streak += 1
                if streak == 3:
                    streak = 0
                    in_jail = torch.tensor(True)
                    pos = torch.tensor(JAIL)
                    turns += 1
                    continue
            else:
                streak = 0

            old = pos
            pos = (pos + d1 + d2) % 40
            if pos < old:
                cash = cash + self.salary
            visits[pos] += 1
            if pos == GO_TO_JAIL:
                streak = 0
                in_jail = torch.tensor(True)
                pos = torch.tensor(JAIL)
                turns += 1
                continue
            cash = cash - self._landing_cost(pos, cash)
            if not doubles:
                turns += 1
        return cash, pos, torch.tensor(turns), visits


def model():
    torch.manual_seed(64)
    return MonopolySolo().eval()


def _rolls(*pairs):
    return torch.tensor(pairs, dtype=torch.long)


def example_inputs():
    # 2+2 -> 4 income tax; 3+4 -> 11; 6+6, 5+5, 1+1 -> three doubles: jail; 2 failed tries; doubles out of jail
    return _rolls((2, 2), (3, 4), (6, 6), (5, 5), (1, 1), (1, 2), (3, 5), (4, 4), (6, 5)), torch.tensor(1500)


def dynamic_shapes():
    r = torch.export.Dim("rolls", min=2, max=200)
    return ({0: r}, None)


def verify_inputs():
    long_game = torch.stack([torch.tensor([(k % 6) + 1, ((k * 5 + 2) % 6) + 1]) for k in range(150)])
    return [
        example_inputs(),   # income tax, doubles streak -> jail (continue), failed tries (continue), doubles release
        (_rolls((6, 4), (6, 4), (5, 5), (3, 1), (1, 2), (2, 4), (5, 6)), torch.tensor(800)),
        # 10 (visit jail), 20, 30 -> go-to-jail square (continue); 3 failed tries -> pay fine; pass GO -> salary
        (_rolls((6, 5), (6, 6), (6, 5), (5, 6), (6, 6)), torch.tensor(40)),  # rent drains cash -> loop stops on bankruptcy
        (_rolls((1, 2), (1, 3)), torch.tensor(1000)),                       # two plain rolls, dice run out
        (long_game, torch.tensor(3000)),                                    # long game around the board several times (luxury tax too)
    ]
