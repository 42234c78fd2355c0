"""Feeding controller for a mesophilic agricultural biogas digester.

Hourly sensor log columns: pH, temperature C, FOS/TAC ratio (volatile acids over
alkalinity), biogas flow m3/h, methane %.  The operator's daily feed plan
(tonnes of substrate) is reduced step by step while the predicted FOS/TAC at
that feed would exceed the stability limit; an acidifying digester (pH below
6.8) is not fed at all.  Heating demand is reported when the temperature leaves
the mesophilic band.
"""
import torch
import torch.nn as nn


class AcidityPredictor(nn.Module):
    """FOS/TAC tomorrow as a function of the current state and the feed."""

    def __init__(self):
        super().__init__()
        self.correction = nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 1))
        self.sensitivity = 0.012      # FOS/TAC per tonne above the baseline feed
        self.baseline_feed = 20.0

    def forward(self, state, feed):
        x = torch.cat([state / torch.tensor([7.0, 40.0, 0.5, 50.0, 60.0]), feed / 30.0])
        return state[2] + self.sensitivity * (feed[0] - self.baseline_feed) + 0.005 * torch.tanh(self.correction(x))[0]


class DigesterFeedController(nn.Module):
    def __init__(self):
        super().__init__()
        self.predictor = AcidityPredictor()
        self.fos_tac_limit = 0.40
        self.min_ph = 6.8
        self.band = (37.0, 42.0)
        self.step = 0.9
        self.max_cuts = 25

    def forward(self, log, planned_feed):
        # log: (hours, 5); planned_feed: (1,) tonnes/day
        state = log[-6:].mean(dim=0)          # last six hours
        ph, temp = state[0], state[1]

        heating_kw = torch.zeros(1)
        lo, hi = self.band
        if temp < lo:
            heating_kw = (lo - temp).reshape(1) * 15.0
        elif temp > hi:
            heating_kw = (hi - temp).reshape(1) * 15.0   # negative: open the cooler

        if ph < self.min_ph:
            return torch.zeros(1), heating_kw, state[2].reshape(1)

        feed = planned_feed.clone()
        predicted = self.predictor(state, feed)
        cuts = 0
        while predicted > self.fos_tac_limit and cuts < self.max_cuts:
            feed = feed * self.step
            predicted = self.predictor(state, feed)
            cuts += 1
        return feed, heating_kw, predicted.reshape(1)


def model():
    torch.manual_seed(5606)
    return DigesterFeedController().eval()


def _log(hours, ph, temp, fos_tac, seed):
    g = torch.Generator().manual_seed(seed)
    u = torch.rand(hours, 5, generator=g) - 0.5
    base = torch.tensor([ph, temp, fos_tac, 42.0, 55.0])
    spread = torch.tensor([0.04, 0.3, 0.01, 4.0, 1.0])
    return base + spread * u


def example_inputs():
    return (_log(24, 7.4, 39.5, 0.28, 1), torch.tensor([22.0]))


def dynamic_shapes():
    hours = torch.export.Dim("hours", min=6, max=168)
    return ({0: hours}, None)


def verify_inputs():
    return [
        # 24 h, stable digester (FOS/TAC 0.28) in band -> plan kept, loop not entered
        example_inputs(),
        # min 6 h, FOS/TAC 0.37 with a big plan of 32 t -> feed cut a few times; cold 34 C -> heat
        (_log(6, 7.2, 34.0, 0.37, 2), torch.tensor([32.0])),
        # max 168 h (one week), acidified pH 6.5 -> not fed (early return); hot 44 C -> cooling
        (_log(168, 6.5, 44.0, 0.55, 3), torch.tensor([25.0])),
        # 48 h, FOS/TAC 0.41 already over the limit, plan 26 t -> cut three times until below
        (_log(48, 7.0, 38.0, 0.41, 4), torch.tensor([26.0])),
    ]
