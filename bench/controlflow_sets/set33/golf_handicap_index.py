"""Golf handicap index (World Handicap System style) plus a playing-handicap head.

diffs: score differentials of the player's rounds, oldest first (dynamic count).
course: [slope/113, course_rating - par, tee length km, wind m/s] for today's course.
Returns (handicap_index[1], expected_net_score_over_par[1]).
"""
import torch
import torch.nn as nn
from torch.export import Dim

# number of lowest differentials used, indexed by number of rounds on record (WHS table)
BEST_OF = [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 6, 6, 7, 8]
ADJUST = {3: -2.0, 4: -1.0, 6: -1.0}


class HandicapIndex(nn.Module):
    def __init__(self, max_index=54.0, window=20):
        super().__init__()
        self.max_index = max_index
        self.window = window
        self.course_head = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, diffs, course):
        n = diffs.shape[0]
        if n < 3:
            # not enough rounds for an index yet: everybody starts at the maximum
            index = torch.full((1,), self.max_index)
            return index, self.course_head(torch.cat([course, index / 10]))
        if n > self.window:
            diffs = diffs[-self.window:]
        m = diffs.shape[0]
        best, _ = torch.sort(diffs)
        index = best[: BEST_OF[m]].mean() + ADJUST.get(m, 0.0)

        # exceptional score reduction: the latest round is far below the index
        gap = index - diffs[-1]
        if gap >= 10.0:
            index = index - 2.0
        elif gap >= 7.0:
            index = index - 1.0

        if index > self.max_index:
            index = torch.full_like(index, self.max_index)
        index = index.reshape(1)
        playing = index * course[0] + course[1]
        return index, self.course_head(torch.cat([course, playing / 10]))


def model():
    torch.manual_seed(33)
    return HandicapIndex().eval()


def _rounds(n, mean, spread, seed, latest=None):
    g = torch.Generator().manual_seed(seed)
    d = mean + spread * torch.rand(n, generator=g)
    if latest is not None:
        d[-1] = latest
    return d


COURSE = torch.tensor([1.12, 1.8, 6.1, 3.5])


def example_inputs():
    return (_rounds(12, 12.0, 10.0, 1), COURSE)


def dynamic_shapes():
    return ({0: Dim("rounds", min=2, max=40)}, None)


def verify_inputs():
    return [
        example_inputs(),                                        # 12 rounds, no trim, no reduction, under cap
        (_rounds(2, 20.0, 5.0, 2), COURSE),                      # n < 3: early return with max index
        (_rounds(4, 20.0, 6.0, 3), COURSE),                      # 4 rounds (ADJUST -1), no trim
        (_rounds(25, 10.0, 8.0, 4), COURSE),                     # > 20 rounds: trimmed to the last 20
        (_rounds(20, 15.0, 6.0, 5, latest=1.0), COURSE),         # latest >= 10 below index: -2 reduction
        (_rounds(20, 18.0, 4.0, 6, latest=9.0), COURSE),         # latest 7..10 below index: -1 reduction
        (_rounds(6, 58.0, 6.0, 7), COURSE),                      # index above 54: capped
        (_rounds(3, 30.0, 8.0, 8), torch.tensor([0.95, -0.4, 5.2, 8.0])),  # exactly 3 rounds, other course
    ]
