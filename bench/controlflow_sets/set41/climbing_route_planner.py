"""Bouldering / lead route beta planner for a climbing-gym route-setting app.

Holds are (x, y, quality) with positions in metres on the wall and quality in
[0, 1] (1 = jug, 0 = tiny crimp). Starting from the lowest hold, the climber
greedily moves to the best reachable higher hold (a move scorer network plus
a strong preference for good holds) until the top hold is reached, no hold is
in reach, or the move budget is spent. The hardest move sets the grade.
"""
import torch
import torch.nn as nn
from torch.export import Dim


def move_difficulty(dist, quality, reach):
    base = dist / reach + (1.0 - quality)
    if dist > 0.9 * reach:
        base = base * 1.5  # dynamic move (dyno)
    return base


class BetaPlanner(nn.Module):
    def __init__(self, max_moves=12, top_tol=0.01):
        super().__init__()
        self.max_moves = max_moves
        self.top_tol = top_tol
        self.move_scorer = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))

    def reachable(self, holds, cur, reach):
        delta = holds[:, :2] - holds[cur, :2]
        dist = delta.norm(dim=1)
        higher = delta[:, 1] > 0.05
        return (dist <= reach) & higher, dist, delta

    def score_moves(self, holds, mask, dist, delta, reach):
        feats = torch.stack([delta[:, 0] / reach, delta[:, 1] / reach, dist / reach, holds[:, 2]], dim=1)
        scores = 0.3 * torch.tanh(self.move_scorer(feats).squeeze(1)) + 2.0 * holds[:, 2] + delta[:, 1] / reach
        return scores.masked_fill(~mask, float("-inf"))

    def forward(self, holds, reach):
        r = reach[0]
        cur = int(torch.argmin(holds[:, 1]))
        top_y = holds[:, 1].max()
        path = [cur]
        crux = holds.new_zeros(())
        while holds[cur, 1] < top_y - self.top_tol:
            mask, dist, delta = self.reachable(holds, cur, r)
            if not mask.any():
                break  # nothing in reach: the route does not go for this climber
            nxt = int(torch.argmax(self.score_moves(holds, mask, dist, delta, r)))
            crux = torch.maximum(crux, move_difficulty(dist[nxt], holds[nxt, 2], r))
            path.append(nxt)
            cur = nxt
            if len(path) > self.max_moves:
                break  # pumped out
        topped = holds[cur, 1] >= top_y - self.top_tol
        grade = 3.0 + 4.0 * crux if topped else torch.zeros_like(crux)
        return torch.tensor(path), grade, topped


def model():
    torch.manual_seed(73)
    return BetaPlanner().eval()


def _wall(rows, reach):
    return torch.tensor(rows, dtype=torch.float32), torch.tensor([reach])


def example_inputs():
    return _wall([[1.0, 0.3, 0.9], [1.4, 0.9, 0.5], [0.7, 1.1, 0.8], [1.2, 1.6, 0.3], [0.9, 1.8, 0.95],
                  [1.5, 2.3, 0.6], [1.1, 2.6, 0.2], [1.3, 3.0, 0.85], [0.6, 2.9, 0.4], [1.0, 3.6, 1.0]], 0.9)


def dynamic_shapes():
    return ({0: Dim("holds", min=2, max=64)}, None)


def _ladder(n, dy, seed):
    g = torch.Generator().manual_seed(seed)
    y = 0.2 + dy * torch.arange(n, dtype=torch.float32)
    x = 1.0 + 0.3 * torch.rand(n, generator=g)
    q = 0.1 + 0.8 * torch.rand(n, generator=g)
    return torch.stack([x, y, q], dim=1)


def _bolt_wall(n, seed, cols=6):
    """n holds on a 20 cm T-nut grid, plus a start jug below all of them (listed mid-table)."""
    g = torch.Generator().manual_seed(seed)
    m = n - 1
    rows = -(-m // cols) + 4
    cells = torch.randperm(rows * cols, generator=g)[:m]
    x = 0.6 + 0.2 * (cells % cols).float()
    y = 0.2 + 0.2 * (cells // cols).float()
    q = 0.1 + 0.8 * torch.rand(m, generator=g)
    h = torch.stack([x, y, q], dim=1)
    return torch.cat([h[: m // 2], torch.tensor([[1.0, 0.0, 0.9]]), h[m // 2:]])


def verify_inputs():
    return [
        example_inputs(),                                            # several moves, tops out
        _wall([[1.0, 0.2, 0.9], [1.1, 0.8, 0.7], [1.0, 2.5, 0.9], [1.2, 3.0, 0.6]], 0.8),  # blank section: stuck
        (_ladder(40, 0.3, seed=0), torch.tensor([0.7])),             # long route: move budget exhausted
        _wall([[1.0, 0.5, 0.5], [1.2, 1.1, 0.7]], 0.8),              # two holds: a single move tops out
        _wall([[1.0, 0.3, 0.8], [1.0, 1.15, 0.9], [1.6, 1.5, 0.3], [1.1, 1.95, 0.9]], 0.9),  # near-full-reach dynos
        (_bolt_wall(64, seed=10), torch.tensor([0.95])),             # 64 holds on the bolt grid, start mid-table
    ]
