"""Athletics analytics: simulate a pole-vault final from athletes' form.

Each vaulter's clearance capacity is the season best adjusted by a small form
model. The bar goes up through the published progression; vaulters may pass
heights below their declared opening height, get three consecutive attempts at
each height they take (a little sharper on later attempts, a little more tired
with every jump), and are out after three misses in a row. Ranking uses the
best height and then total misses (count-back), ties share a place.
"""
import torch
import torch.nn as nn


class FormModel(nn.Module):
    def __init__(self, n_feats=6):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(n_feats, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, feats):
        season_best = feats[:, 0]
        return season_best + 0.05 * torch.tanh(self.mlp(feats)).squeeze(-1)


class PoleVaultFinal(nn.Module):
    def __init__(self, attempt_gain=0.02, fatigue_per_jump=0.01, max_attempts=3):
        super().__init__()
        self.form = FormModel()
        self.attempt_gain = attempt_gain
        self.fatigue_per_jump = fatigue_per_jump
        self.max_attempts = max_attempts

    def _rank(self, best, misses):
        places = []
        for i in range(best.shape[0]):
            better = (best > best[i]) | ((best == best[i]) & (misses < misses[i]))
            places.append(1 + better.sum())
        return torch.stack(places)

    def forward(self, athlete_feats, opening_m, bar_heights_m):
        capacity = self.form(athlete_feats)
        n = athlete_feats.shape[0]
        alive = torch.ones(n, dtype=torch.bool)
        best = torch.full((n,), -1.0)
        misses_total = torch.zeros(n, dtype=torch.long)
        jumps = [0] * n

        k = 0
        while k < bar_heights_m.shape[0] and alive.any():
            bar = bar_heights_m[k]
            for i in range(n):
                if not alive[i]:
                    continue
                if opening_m[i] > bar:
                    continue  # passes this height
                misses = 0
                while misses < self.max_attempts:
                    margin = capacity[i] - bar + self.attempt_gain * misses - self.fatigue_per_jump * jumps[i]
                    jumps[i] += 1
                    if margin > 0:
                        best[i] = bar
                        break
                    misses += 1
                    misses_total[i] += 1
                else:
                    alive[i] = False  # three misses in a row
            k += 1

        return best, misses_total, self._rank(best, misses_total), torch.tensor(k)


def model():
    torch.manual_seed(64)
    return PoleVaultFinal().eval()


def _field(season_bests, openings, bars, seed):
    g = torch.Generator().manual_seed(seed)
    n = len(season_bests)
    feats = torch.randn(n, 6, generator=g) * 0.5
    feats[:, 0] = torch.tensor(season_bests)
    return feats, torch.tensor(openings), torch.tensor(bars)


def example_inputs():
    return _field(
        [5.82, 5.71, 5.64, 5.90, 5.55],
        [5.40, 5.40, 5.40, 5.60, 5.40],
        [5.40, 5.50, 5.60, 5.70, 5.80, 5.90, 6.00, 6.10],
        1,
    )


def dynamic_shapes():
    a = torch.export.Dim("athletes", min=2, max=16)
    k = torch.export.Dim("heights", min=3, max=24)
    return ({0: a}, {0: a}, {0: k})


def verify_inputs():
    many = [5.30 + 0.035 * i for i in range(16)]
    return [
        example_inputs(),  # passes (continue), first- and second-attempt clearances, eliminations; all out before 6.10
        _field(many, [5.20] * 16, [5.00 + 0.05 * i for i in range(24)], 2),
        # ^ max athletes and max heights: the whole field is out before the bar list ends (`alive.any()` false)
        _field([5.95, 5.60], [5.50, 5.40], [5.40, 5.50, 5.60], 3),
        # ^ min athletes and min heights: the bar list runs out with both still in
        _field([5.10, 5.20, 5.30], [5.60, 5.60, 5.60], [5.40, 5.50, 5.60, 5.70], 4),
        # ^ everyone opens high and no-heights at the opening -> all best -1, all tied
    ]
