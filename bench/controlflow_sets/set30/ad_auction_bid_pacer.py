"""Real-time-bidding agent with budget pacing (ad tech) (kind X).

Inputs: a time-ordered stream of R bid requests (R, 6) (feature 0 = request time as a
fraction of the campaign flight, the rest are user/context features), the publisher
floor prices (R,), the highest competing bid observed after the auction (R,) (log
replay), and the campaign budget (1,).  A value model predicts the CPM value of each
impression.  The agent walks the stream with a while loop that runs while budget remains:
requests after the campaign end stop the replay (break), requests whose paced value is
under the floor are skipped (continue), the bid is shaded by a helper with its own
branches, wins are charged the second price, and the pacing multiplier is adjusted
after every auction depending on spend vs. the ideal spend curve.

constructs: 1 (if/elif on tensor predicates), 2 (returns inside helper branches), 3 (and / not),
            4 (while with tensor condition, loop-carried tensors), 6 (break / continue on
            tensor conditions), 7 (helper with control flow)
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def shade_bid(value, floor, shade):
    """First-price-style shading that never bids under the floor."""
    if value > 3.0 * floor:
        return value * (1.0 - shade)            # plenty of room: shade hard
    if value > 1.5 * floor:
        return torch.maximum(value * (1.0 - 0.5 * shade), floor * 1.05)
    return floor * 1.01                          # just clear the floor


class BidPacer(nn.Module):
    def __init__(self, n_feat=6, hidden=16, shade=0.3, min_budget=0.05, campaign_end=1.0):
        super().__init__()
        self.value_net = nn.Sequential(nn.Linear(n_feat - 1, hidden), nn.ReLU(), nn.Linear(hidden, 1))
        self.shade = shade
        self.min_budget = min_budget
        self.campaign_end = campaign_end

    def forward(self, requests, floors, competing, budget):
        values = 2.0 * F.softplus(self.value_net(requests[:, 1:])).squeeze(1) + 2.0 * requests[:, 1]
        n = requests.shape[0]
        total = budget.reshape(())
        remaining = total.clone()
        alpha = torch.ones(())
        won = torch.zeros(n)
        paid = torch.zeros(n)
        r = 0
        while r < n and remaining > self.min_budget:
            t = requests[r, 0]
            if t > self.campaign_end:
                break
            bid = alpha * values[r]
            if bid < floors[r]:
                r += 1
                continue
            bid = torch.minimum(shade_bid(bid, floors[r], self.shade), remaining)
            if bid > competing[r] and not bid < floors[r]:
                price = torch.maximum(competing[r], floors[r])
                remaining = remaining - price
                won[r] = 1.0
                paid[r] = price
            ideal_spend = total * t / self.campaign_end
            spent = total - remaining
            if spent > 1.2 * ideal_spend:
                alpha = alpha * 0.8
            elif spent < 0.8 * ideal_spend:
                alpha = torch.clamp(alpha * 1.1, max=2.0)
            r += 1
        return won, paid, remaining, alpha


def model():
    torch.manual_seed(318)
    return BidPacer().eval()


def _stream(times, quality, floors, competing, budget, seed=0):
    g = torch.Generator().manual_seed(seed)
    n = len(times)
    req = torch.rand(n, 6, generator=g)
    req[:, 0] = torch.tensor(times, dtype=torch.float32)
    req[:, 1] = torch.tensor(quality, dtype=torch.float32)
    f = lambda v: torch.tensor(v if isinstance(v, list) else [v] * n, dtype=torch.float32)  # noqa: E731
    return req, f(floors), f(competing), torch.tensor([float(budget)])


def _times(n, t_end=1.0):
    return [t_end * (k + 1) / n for k in range(n)]


def example_inputs():
    # mixed stream: wins, losses, skipped cheap impressions, pacing in all three modes
    return _stream(_times(10), [1.0, 0.0, 1.0, 0.2, 1.0, 0.0, 0.9, 1.0, 0.1, 1.0],
                   [0.5, 2.0, 0.6, 3.5, 1.0, 1.8, 0.5, 1.6, 4.0, 0.7],
                   [0.95, 3.0, 0.4, 1.0, 1.1, 2.8, 0.9, 1.2, 1.0, 0.6], budget=10.0)


def dynamic_shapes():
    R = torch.export.Dim("requests", min=2, max=2048)
    return ({0: R}, {0: R}, {0: R}, None)


def verify_inputs():
    return [
        example_inputs(),                                           # wins, a loss, skips (continue), hard + floor-level shading, pacing keep then up; ends with r == n
        _stream(_times(4), [1.0] * 4, 0.5, 0.9, budget=0.02),      # budget below minimum: while runs 0 times
        _stream(_times(10), [1.0] * 10, 0.5, 0.95, budget=10.0),   # spend tracks the ideal curve: pacing keeps alpha
        _stream(_times(8), [1.0] * 8, 0.8, 1.2, budget=2.43),      # two wins exhaust the budget: loop exits on 'remaining'; pacing down
        _stream(_times(6), [1.0] * 6, 1.0, 0.5, budget=1.6),       # after one win, remaining (0.6) < floor: capped bid beats competitor but not floor
        _stream(_times(8, t_end=1.6), [1.0] * 8, 0.5, 0.9, budget=50.0),   # requests after the campaign end -> break
        _stream(_times(5), [0.0] * 5, 4.0, 0.5, budget=5.0),       # floors above value: every request 'continue'
    ]
