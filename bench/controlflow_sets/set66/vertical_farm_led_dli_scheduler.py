"""Vertical farm LED scheduler.

Each remaining hour of the day gets an LED power level so that the crop receives its daily
light integral (DLI) while preferring cheap electricity hours. A tiny crop-stage network
adjusts the DLI target (seedlings need less light than heading lettuce).

Kind: T.  Constructs: 1, 2, 3, 5, 9.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class LedDliScheduler(nn.Module):
    def __init__(self, base_dli=14.0, max_ppfd=400.0, cheap_price=0.12, mid_price=0.25,
                 eco_mode=False):
        super().__init__()
        self.base_dli = base_dli
        # mol / m^2 delivered by one hour at full LED power
        self.per_hour = max_ppfd * 3600.0 / 1e6
        self.cheap_price = cheap_price
        self.mid_price = mid_price
        self.eco_mode = eco_mode
        self.stage_head = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, prices, crop):
        # prices: (H,) $/kWh for the remaining hours, crop: (3,) [age/30, leaf area index, EC]
        target = self.base_dli * (1.0 + 0.3 * torch.tanh(self.stage_head(crop))).squeeze(-1)
        n_hours = prices.shape[0]
        delivered = torch.zeros(())
        levels = []
        for h in range(n_hours):
            remaining = target - delivered
            hours_left = n_hours - h
            if remaining <= 0.05:
                level = torch.zeros(())
            elif prices[h] < self.cheap_price or remaining > (hours_left - 1) * self.per_hour:
                # cheap hour, or we would miss the target if we skipped this hour
                level = torch.clamp(remaining / self.per_hour, max=1.0)
            elif prices[h] < self.mid_price and not self.eco_mode:
                level = 0.5 * torch.clamp(remaining / self.per_hour, max=1.0)
            else:
                level = torch.zeros(())
            levels.append(level)
            delivered = delivered + level * self.per_hour
        schedule = torch.stack(levels) * 100.0  # percent of full power
        return schedule, delivered


def model():
    torch.manual_seed(0)
    return LedDliScheduler().eval()


_CROP = [0.5, 1.2, 1.8]


def example_inputs():
    prices = torch.tensor([0.30, 0.28, 0.10, 0.08, 0.09, 0.20, 0.22, 0.35, 0.40, 0.18,
                           0.11, 0.07, 0.30, 0.32, 0.21, 0.26])
    return (prices, torch.tensor(_CROP))


def dynamic_shapes():
    return ({0: Dim("hours", min=2, max=48)}, None)


def verify_inputs():
    return [
        # mixed day: cheap hours lit, mid hours half power, expensive skipped, target reached later
        example_inputs(),
        # only 4 hours left and all expensive: "would miss the target" branch every hour
        (torch.tensor([0.40, 0.45, 0.50, 0.42]), torch.tensor(_CROP)),
        # 24 cheap hours: target met early, then the remaining <= 0.05 branch for the rest
        (torch.full((24,), 0.05), torch.tensor([0.1, 0.3, 1.0])),
        # all mid-price hours: half-power branch repeatedly, then forced near the end
        (torch.full((12,), 0.20), torch.tensor([1.5, 2.5, 2.0])),
        # two expensive hours (minimum size): forced branch, target not reachable
        (torch.tensor([0.60, 0.55]), torch.tensor(_CROP)),
    ]
