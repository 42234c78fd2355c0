"""Hotel revenue management: nightly room-rate recommendation for the next
stay nights. A learned demand model forecasts occupancy per night (plus the
booking-pace signal revenue managers rely on); business rules then pick a
demand tier, apply weekend / city-event premiums, and enforce the brand's
rate floor and ceiling.

Inputs: features [B, 8] per night (col 0 weekend flag, col 1 city-event flag,
col 2 booking pace vs. last year (std units), cols 3.. market signals), base_rate [B].
Outputs: recommended rate [B], forecast occupancy [B].
"""
import torch
import torch.nn as nn


class RoomRatePricer(nn.Module):
    def __init__(self, floor=79.0, ceiling=450.0, weekend_premium=True, pace_gain=2.5):
        super().__init__()
        self.floor = floor
        self.ceiling = ceiling
        self.weekend_premium = weekend_premium
        self.pace_gain = pace_gain
        self.demand = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, features, base_rate):
        logit = 0.3 * self.demand(features).squeeze(-1) + self.pace_gain * features[:, 2]
        occ = torch.sigmoid(logit)
        avg = occ.mean()

        if avg > 0.85:
            tier = 1.30
        elif avg > 0.60:
            tier = 1.10
        elif avg < 0.30:
            tier = 0.80
        else:
            tier = 1.0
        price = base_rate * tier * (1.0 + 0.2 * (occ - avg))

        if self.weekend_premium:
            price = price * (1.0 + 0.1 * features[:, 0])

        has_event = features[:, 1].max() > 0.5
        if has_event and not avg < 0.30:
            price = price * 1.15

        if (price > self.ceiling).any():
            # brand ceiling: cap, and tell the channel manager demand is saturated
            return price.clamp(max=self.ceiling), torch.ones_like(occ)
        return price.clamp(min=self.floor), occ


def model():
    torch.manual_seed(6)
    return RoomRatePricer().eval()


def _nights(n, pace, base, event, seed):
    g = torch.Generator().manual_seed(seed)
    f = torch.randn(n, 8, generator=g) * 0.5
    f[:, 0] = (torch.arange(n) % 7 >= 5).float()
    f[:, 1] = 0.0
    if event:
        f[n // 2, 1] = 1.0
    f[:, 2] = pace
    return f, torch.full((n,), base)


def example_inputs():
    return _nights(14, 0.4, 140.0, event=True, seed=1)


def dynamic_shapes():
    nights = torch.export.Dim("nights", min=2, max=90)
    return ({0: nights}, {0: nights})


def verify_inputs():
    return [
        example_inputs(),  # mid-high demand tier, event and not low demand -> event premium
        _nights(7, 2.5, 160.0, event=False, seed=2),  # avg > 0.85 top tier, no event
        _nights(30, -1.5, 90.0, event=True, seed=3),  # avg < 0.30 low tier; event but low demand -> no premium; floor
        _nights(5, 0.0, 110.0, event=False, seed=4),  # 0.30 <= avg <= 0.60 -> neutral tier
        _nights(10, 2.5, 380.0, event=True, seed=5),  # expensive suite, top tier + event -> over ceiling -> early return
        _nights(2, 0.0, 90.0, event=True, seed=6),  # min length, neutral tier with event -> premium
    ]
