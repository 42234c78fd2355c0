"""T20 cricket: live projected first-innings total from ball-by-ball data.

Deliveries are grouped into overs (the over in progress is scaled up to a full
over), a GRU reads the over-by-over runs and wickets as batting momentum, and
the projection applies the usual wickets-in-hand adjustment to the current
scoring rate.  A completed innings (all out or 20 overs bowled) just reports
the actual total.
"""
import torch
import torch.nn as nn


class InningsProjector(nn.Module):
    def __init__(self, max_balls=120):
        super().__init__()
        self.max_balls = max_balls
        self.form = nn.GRU(2, 16, batch_first=True)
        self.head = nn.Linear(16 + 2, 1)

    def forward(self, balls):
        # balls: [B, 3] per legal delivery: runs off the bat, extras, wicket (0/1)
        n = balls.shape[0]
        runs = balls[:, 0] + balls[:, 1]
        total = runs.sum()
        wickets = balls[:, 2].sum()

        overs = []
        for o in range(n // 6):
            over = balls[6 * o: 6 * o + 6]
            overs.append(torch.stack([over[:, 0].sum() + over[:, 1].sum(), over[:, 2].sum()]))
        if n % 6 != 0:
            # over in progress: scale its runs to a full over
            part = balls[6 * (n // 6):]
            frac = part.shape[0] / 6.0
            overs.append(torch.stack([(part[:, 0].sum() + part[:, 1].sum()) / frac, part[:, 2].sum()]))
        table = torch.stack(overs)

        if wickets >= 10 or n >= self.max_balls:
            # innings complete: the projection is the actual total
            return total, table

        _, h = self.form((table / torch.tensor([10.0, 1.0])).unsqueeze(0))
        rate = total / n
        if wickets >= 7:
            # tail-enders in: expect the rate to drop
            rate = rate * 0.7
        elif wickets >= 4:
            rate = rate * 0.95
        else:
            # wickets in hand: set batters accelerate at the death
            rate = rate * 1.15
        ctx = torch.stack([wickets / 10.0, torch.tensor(n / self.max_balls)])
        momentum = torch.tanh(self.head(torch.cat([h[-1, 0], ctx]))).squeeze()
        projected = total + (self.max_balls - n) * rate * (1.0 + 0.1 * momentum)
        return projected, table


def model():
    torch.manual_seed(29)
    return InningsProjector().eval()


def _make_innings(n, wicket_balls, seed):
    g = torch.Generator().manual_seed(seed)
    bat = torch.tensor([0.0, 1.0, 1.0, 2.0, 4.0, 6.0, 0.0, 1.0])[torch.randint(0, 8, (n,), generator=g)]
    extras = (torch.rand(n, generator=g) < 0.05).float()
    wk = torch.zeros(n)
    wk[list(wicket_balls)] = 1.0
    bat = torch.where(wk > 0, torch.zeros(n), bat)
    return (torch.stack([bat, extras, wk], dim=1),)


def example_inputs():
    # 7.3 overs, 2 down
    return _make_innings(45, [10, 31], 0)


def dynamic_shapes():
    return ({0: torch.export.Dim("balls", min=2, max=300)},)


def verify_inputs():
    return [
        # partial over, wickets in hand branch
        example_inputs(),
        # two balls: zero full overs (loop runs 0 times), partial over only
        _make_innings(2, [], 1),
        # exactly one over, no partial, 4 wickets down (middle branch)
        _make_innings(6, [0, 2, 3, 5], 2),
        # 14 overs exactly, 8 down (tail-enders branch)
        _make_innings(84, [3, 15, 22, 40, 51, 60, 70, 77], 3),
        # full 20 overs bowled: innings-complete return
        _make_innings(120, [12, 50, 90], 4),
        # all out in the 13th over: innings-complete return on wickets
        _make_innings(75, [5, 9, 20, 28, 33, 41, 50, 61, 66, 74], 5),
    ]
