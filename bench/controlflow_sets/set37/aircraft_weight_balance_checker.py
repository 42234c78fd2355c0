"""Pre-flight weight & balance check for a light twin.

Loading stations (seats, baggage bays) come as two vectors: the weight placed at
each station and its arm (m aft of datum).  The checker totals the moments, looks
up the CG envelope for the take-off weight and, if the CG is out of limits,
proposes how much ballast to put in the nose or tail bay.
"""
import torch
import torch.nn as nn
from torch.export import Dim

OK, OUT_OF_CG, OVERWEIGHT = 0, 1, 2


class WeightBalance(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("empty_weight", torch.tensor(1520.0))   # kg, basic empty weight
        self.register_buffer("empty_arm", torch.tensor(2.35))        # m
        self.fuel_arm = 2.45
        self.mtow = 2300.0
        self.kink_weight = 1900.0         # forward limit starts moving aft above this weight
        self.fwd_low, self.fwd_slope = 2.28, 0.00025
        self.aft_limit = 2.55
        self.nose_arm, self.tail_arm = 0.60, 4.80

    def cg_limits(self, total):
        if total <= self.kink_weight:
            fwd = torch.full_like(total, self.fwd_low)
        else:
            fwd = self.fwd_low + self.fwd_slope * (total - self.kink_weight)
        aft = torch.full_like(total, self.aft_limit)
        return fwd, aft

    def forward(self, weights, arms, fuel_kg):
        total = self.empty_weight.clone()
        moments = [self.empty_weight * self.empty_arm]
        for i in range(weights.shape[0]):
            if weights[i] <= 0:
                continue                  # empty seat / unused bay
            moments.append(weights[i] * arms[i])
            total = total + weights[i]
        total = total + fuel_kg[0]
        moment = torch.stack(moments).sum() + fuel_kg[0] * self.fuel_arm
        cg = moment / total

        if total > self.mtow:
            excess = total - self.mtow
            return torch.tensor(OVERWEIGHT), cg, total, -excess

        fwd, aft = self.cg_limits(total)
        ballast = torch.zeros_like(total)
        status = torch.tensor(OK)
        if cg < fwd or cg > aft:
            status = torch.tensor(OUT_OF_CG)
            # ballast B at arm a moves the CG to the limit L:  (M + B a) / (W + B) = L
            if cg < fwd:
                ballast = (fwd * total - moment) / (self.tail_arm - fwd)
            else:
                ballast = (moment - aft * total) / (aft - self.nose_arm)
        return status, cg, total, ballast


def model():
    torch.manual_seed(3)
    return WeightBalance().eval()


def example_inputs():
    # pilot, front pax, 2 rear pax, baggage
    w = torch.tensor([85.0, 70.0, 0.0, 65.0, 30.0])
    a = torch.tensor([2.05, 2.05, 3.00, 3.00, 3.90])
    return w, a, torch.tensor([180.0])


def dynamic_shapes():
    n = Dim("stations", min=2, max=16)
    return {0: n}, {0: n}, None


def verify_inputs():
    return [
        example_inputs(),   # one empty seat (continue taken), total > kink, CG inside -> OK
        (torch.tensor([80.0, 0.0]), torch.tensor([2.05, 3.90]),
         torch.tensor([120.0])),                            # light (<= kink), CG inside -> OK
        (torch.tensor([90.0, 95.0, 100.0, 110.0, 120.0, 60.0]),
         torch.tensor([2.05, 2.05, 3.0, 3.0, 3.5, 3.9]),
         torch.tensor([300.0])),                            # over MTOW -> early return
        (torch.tensor([85.0, 0.0, 0.0, 0.0, 90.0, 80.0]),
         torch.tensor([2.05, 2.05, 3.0, 3.0, 3.9, 4.3]),
         torch.tensor([100.0])),                            # aft baggage but CG still inside -> OK
        (torch.tensor([85.0, 0.0, 120.0, 100.0]),
         torch.tensor([2.05, 2.05, 4.8, 4.5]),
         torch.tensor([100.0])),                            # heavy tail baggage -> CG aft -> nose ballast
        (torch.tensor([110.0, 105.0, 20.0]),
         torch.tensor([1.40, 1.40, 1.40]),
         torch.tensor([60.0])),                             # heavy crew far forward -> CG fwd -> tail ballast
        (torch.tensor([75.0, 60.0, 55.0, 50.0]),
         torch.tensor([2.05, 2.05, 3.0, 3.0]),
         torch.tensor([250.0])),                            # no empty station (continue never taken) -> OK
    ]
