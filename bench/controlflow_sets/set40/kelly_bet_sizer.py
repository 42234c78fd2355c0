"""Sports-betting stake sizing: a win-probability model per fixture and a
fractional Kelly criterion with a bankroll stop, an edge filter, an exposure cap
and a minimum stake.

Kind T; constructs 1, 2, 3, 9."""
import torch
import torch.nn as nn
from torch.export import Dim


class KellyBetSizer(nn.Module):
    def __init__(self, kelly_fraction="half"):
        super().__init__()
        torch.manual_seed(405)
        self.win_prob = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1))
        self.kelly_fraction = kelly_fraction   # "full", "half" or "quarter"
        self.min_bankroll = 50.0
        self.min_edge = 0.02
        self.max_exposure = 0.25               # max fraction of bankroll on the slate
        self.min_stake = 1.0

    def forward(self, feats, odds, bankroll):
        # feats: [N, 8] fixture features, odds: [N] decimal odds, bankroll: [1]
        p = torch.sigmoid(self.win_prob(feats)).squeeze(-1)
        edge = p * odds - 1.0
        if bankroll.item() < self.min_bankroll or not (edge > self.min_edge).any():
            # busted, or nothing on the slate is worth a bet
            return torch.zeros_like(odds), p
        f = torch.clamp(edge / (odds - 1.0), min=0.0)
        if self.kelly_fraction == "half":  # pragma: no branch
            f = f * 0.5
        elif self.kelly_fraction == "quarter":  # pragma: no cover
            f = f * 0.25
        total = f.sum()
        if total > self.max_exposure:
            f = f * (self.max_exposure / total)
        stakes = f * bankroll
        stakes = torch.where(stakes < self.min_stake, torch.zeros_like(stakes), stakes)
        return stakes, p


def model():
    return KellyBetSizer().eval()


def _slate(n, seed, lo, hi):
    g = torch.Generator().manual_seed(seed)
    feats = torch.randn(n, 8, generator=g)
    odds = lo + (hi - lo) * torch.rand(n, generator=g)
    return feats, odds


def example_inputs():
    feats, odds = _slate(10, 1, 1.5, 3.0)
    return feats, odds, torch.tensor([1000.0])


def dynamic_shapes():
    n = Dim("fixtures", min=2, max=32)
    return ({0: n}, {0: n}, None)


def verify_inputs():
    f2, o2 = _slate(6, 2, 1.5, 3.0)
    f3, o3 = _slate(2, 3, 1.05, 1.2)
    f4, o4 = _slate(32, 4, 2.0, 6.0)
    f5, o5 = _slate(4, 5, 1.9, 2.1)
    return [
        example_inputs(),                       # some value bets, exposure under the cap
        (f2, o2, torch.tensor([30.0])),         # bankroll below the stop -> no bets (first operand of `or`)
        (f3, o3, torch.tensor([500.0])),        # min slate, short odds: no edge anywhere -> no bets (`not any`)
        (f4, o4, torch.tensor([800.0])),        # max slate of long shots: exposure capped
        (f5, o5, torch.tensor([200.0])),        # evens-ish odds, single small edge -> under cap
    ]
