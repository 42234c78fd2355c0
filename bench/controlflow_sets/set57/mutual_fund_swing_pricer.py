"""Partial swing pricing for an open-ended fund.

At the daily dealing cut-off the transfer agent hands over the list of
subscription / redemption orders.  If the net flow is big enough (or the
portfolio is illiquid) the NAV is "swung" in the direction of the flow so
that the trading investors, not the ones staying in, pay the dealing costs.
The dealing cost of the portfolio is estimated by a small learned model on
per-holding liquidity features.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DealingCostModel(nn.Module):
    """Per-holding round-trip cost estimate (bps), weighted by portfolio weight."""

    def __init__(self, n_features=4, hidden=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_features, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, holding_features, weights):
        spread_bps = 20.0 * F.softplus(self.net(holding_features)).squeeze(-1)
        return (spread_bps * weights).sum() / weights.sum()


class SwingPricer(nn.Module):
    def __init__(self, swing_threshold=0.02, max_swing_bps=150.0, stress_cost_bps=40.0, large_order_frac=0.05):
        super().__init__()
        self.cost_model = DealingCostModel()
        self.swing_threshold = swing_threshold
        self.max_swing_bps = max_swing_bps
        self.stress_cost_bps = stress_cost_bps
        self.large_order_frac = large_order_frac
        # the board allows a stress multiplier on the swing factor
        self.stress_multiplier = 1.5

    def forward(self, orders, holding_features, weights, nav_aum):
        # orders: (n_orders, 2) [subscription cash, redemption cash]
        # nav_aum: (2,) [unswung NAV per share, fund AUM]
        nav, aum = nav_aum[0], nav_aum[1]
        subs = orders[:, 0].sum()
        reds = orders[:, 1].sum()
        net_flow = subs - reds

        cost_bps = self.cost_model(holding_features, weights)
        stressed = cost_bps > self.stress_cost_bps

        # a single very large order forces a swing review even on quiet days
        order_size = orders.sum(dim=1)
        big_order = (order_size > self.large_order_frac * aum).any()

        flow_ratio = net_flow.abs() / aum
        if flow_ratio < self.swing_threshold and not stressed and not big_order:
            # below the swing threshold: deal at the unswung NAV
            return nav.reshape(1), torch.zeros(1)

        swing_bps = cost_bps
        if stressed:
            swing_bps = swing_bps * self.stress_multiplier
        swing_bps = torch.clamp(swing_bps, max=self.max_swing_bps)

        if net_flow > 0:
            dealing_nav = nav * (1.0 + swing_bps / 1e4)
        elif net_flow < 0:
            dealing_nav = nav * (1.0 - swing_bps / 1e4)
        else:
            # flows net to exactly zero: no direction to swing in
            dealing_nav = nav
            swing_bps = torch.zeros_like(swing_bps)
        return dealing_nav.reshape(1), swing_bps.reshape(1)


def model():
    torch.manual_seed(5701)
    return SwingPricer().eval()


N_ORDERS = torch.export.Dim("n_orders", min=2, max=256)
N_HOLDINGS = torch.export.Dim("n_holdings", min=2, max=128)


def _holdings(n, seed, illiquid=False):
    g = torch.Generator().manual_seed(seed)
    feats = torch.randn(n, 4, generator=g)
    if illiquid:
        # thin trading volume and wide quoted spreads
        feats = feats + torch.tensor([-6.0, -10.0, 0.0, 0.0])
    w = torch.rand(n, generator=g) + 0.1
    return feats, w / w.sum()


def _orders(n, seed, sub_scale, red_scale):
    g = torch.Generator().manual_seed(seed)
    o = torch.rand(n, 2, generator=g)
    o[:, 0] *= sub_scale
    o[:, 1] *= red_scale
    return o


def example_inputs():
    feats, w = _holdings(40, 1)
    # amounts in millions, AUM 1000m: heavy subscriptions
    return (_orders(30, 2, 2.0, 0.2), feats, w, torch.tensor([101.25, 1000.0]))


def dynamic_shapes():
    return ({0: N_ORDERS}, {0: N_HOLDINGS}, {0: N_HOLDINGS}, None)


def verify_inputs():
    feats_s, w_s = _holdings(2, 3)
    feats_l, w_l = _holdings(128, 4)
    feats_ill, w_ill = _holdings(16, 5, illiquid=True)
    balanced = torch.tensor([[3.0, 0.0], [0.0, 3.0], [1.0, 0.0], [0.0, 1.0]])
    return [
        # net subscriptions above threshold -> swing up (net_flow > 0)
        example_inputs(),
        # tiny balanced flow, liquid book, no big order -> early return, unswung NAV
        (_orders(2, 6, 0.1, 0.1), feats_s, w_s, torch.tensor([50.0, 1000.0])),
        # heavy redemptions, many orders and holdings -> swing down (net_flow < 0)
        (_orders(256, 7, 0.1, 0.8), feats_l, w_l, torch.tensor([20.0, 1000.0])),
        # illiquid portfolio (stressed) with flows netting exactly to zero -> else branch
        (balanced, feats_ill, w_ill, torch.tensor([10.0, 1000.0])),
        # net flow below threshold and liquid book, but two large offsetting orders (> 5% of AUM)
        # force the swing: small net subscription -> swing up, no stress multiplier
        (torch.tensor([[60.0, 0.0], [0.0, 55.0], [0.4, 0.3]]), feats_s, w_s, torch.tensor([75.0, 1000.0])),
    ]
