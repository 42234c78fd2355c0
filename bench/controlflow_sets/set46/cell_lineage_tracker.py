"""X: time-lapse microscopy cell tracking between two frames (greedy gated association,
then division detection for unmatched cells).

prev (N, 3) [x, y, area] of tracked cells, curr (M, 3) detections in the new frame.
Returns match (N,) index into curr or -1, parent (M,) index into prev or -1 (divisions), and
a (1,) count of newborn cells with no parent.
Constructs: 1, 2, 3, 5, 6, 7, 8
"""
import torch
import torch.nn as nn


class DivisionDetector(nn.Module):
    """Decides whether an unmatched detection is a daughter of a matched cell."""

    def __init__(self, max_dist=6.0):
        super().__init__()
        self.max_dist = max_dist

    def forward(self, det, prev, match):
        matched = (match >= 0).nonzero().flatten()
        if matched.numel() == 0:
            return -1
        d = (prev[matched, :2] - det[:2]).norm(dim=-1)
        j = int(torch.argmin(d))
        # a daughter is close to the mother and roughly half her area
        if d[j] < self.max_dist and det[2] < 0.75 * prev[matched[j], 2]:
            return int(matched[j])
        return -1


class LineageTracker(nn.Module):
    def __init__(self, gate=8.0):
        super().__init__()
        self.gate = gate
        self.division = DivisionDetector()
        self.w = nn.Parameter(torch.tensor([1.0, 1.0, 0.05]))

    def _cost(self, prev, curr):
        diff = (prev.unsqueeze(1) - curr.unsqueeze(0)) * self.w
        return diff.norm(dim=-1)

    def forward(self, prev, curr):
        N, M = prev.shape[0], curr.shape[0]
        cost = self._cost(prev, curr)
        taken = torch.zeros(M, dtype=torch.bool)
        match = torch.full((N,), -1, dtype=torch.long)
        order = torch.argsort(cost.min(dim=1).values)
        for i in order.tolist():
            c = torch.where(taken, torch.full_like(cost[i], 1e6), cost[i])
            j = int(torch.argmin(c))
            if c[j] > self.gate:
                continue  # cell left the field of view or died
            match[i] = j
            taken[j] = True
            if bool(taken.all()):
                break
        parent = torch.full((M,), -1, dtype=torch.long)
        newborn = 0
        if M > N:
            for j in range(M):
                if taken[j]:
                    continue
                p = self.division(curr[j], prev, match)
                if p >= 0:
                    parent[j] = p
                else:
                    newborn += 1
        return match, parent, torch.tensor([newborn])


def _frames(N, seed, moved=(), divided=(), born=0, lost=()):
    g = torch.Generator().manual_seed(seed)
    xy = torch.rand(N, 2, generator=g) * 40.0 * N ** 0.5
    area = 80.0 + 40.0 * torch.rand(N, 1, generator=g)
    prev = torch.cat([xy, area], 1)
    curr = prev.clone()
    curr[:, :2] += 0.8 * torch.randn(N, 2, generator=g)
    rows = [curr[i] for i in range(N) if i not in lost]
    for i in moved:
        rows[i] = rows[i] + torch.tensor([30.0, 30.0, 0.0])
    for i in divided:
        rows[i] = rows[i] * torch.tensor([1.0, 1.0, 0.5])
        rows.append(rows[i] + torch.tensor([3.0, 2.0, 0.0]))
    for k in range(born):
        rows.append(torch.tensor([-50.0 - 20.0 * k, -50.0, 60.0]))
    return prev, torch.stack(rows)


def model():
    torch.manual_seed(4614)
    return LineageTracker().eval()


def example_inputs():
    return _frames(6, 1, divided=(2,), born=1)


def dynamic_shapes():
    return ({0: torch.export.Dim("prev_cells", min=2, max=64)}, {0: torch.export.Dim("curr_cells", min=2, max=64)})


def verify_inputs():
    return [
        example_inputs(),                         # one division + one newborn (M > N)
        _frames(2, 2),                            # N=M=2: all matched, break when every detection is taken
        _frames(5, 3, lost=(1, 3)),               # M < N: no division stage; lost cells after all taken -> break
        _frames(4, 4, moved=(0,), born=2),        # a cell jumped beyond gate (continue), newborns
        _frames(3, 5, moved=(0, 1, 2), born=1),   # nothing within gate: nothing matched -> division finds no
                                                  # matched mother (early return -1)
        _frames(40, 6, divided=(1, 5, 9), born=3),  # larger frame
        (_frames(64, 7)[0], _frames(64, 7)[1][:62]),  # N=max, M=62
        (_frames(3, 8)[0], torch.cat([_frames(3, 8)[1], _frames(3, 8)[1][:1] + torch.tensor([2.0, 2.0, 0.0])])),
        # extra detection next to a mother but same size: close but not half area -> newborn
    ]
