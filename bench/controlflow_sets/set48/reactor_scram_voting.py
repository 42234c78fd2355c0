"""Reactor protection system: per-channel trip bistables and coincidence (M-out-of-N) voting.

Each redundant channel measures neutron flux (% power), coolant outlet temperature (C), pressurizer
pressure (MPa) and steam-generator level (%). Bypassed channels are skipped; a failed transmitter
(negative reading) trips its channel (fail-safe). With 3+ active channels two trips are needed,
otherwise one. A small learned model reports a transient-precursor score (information only).
"""
import torch
import torch.nn as nn


def channel_trip(r):
    if (r < 0).any():
        return torch.tensor(True)  # failed transmitter -> fail-safe trip
    flux, temp, press, level = r.unbind(0)
    if flux > 109.0 or temp > 330.0:
        return torch.tensor(True)
    if press < 12.5 or press > 16.5:
        return torch.tensor(True)
    return level < 10.0


class ScramLogic(nn.Module):
    def __init__(self):
        super().__init__()
        self.precursor = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
        self.register_buffer("nominal", torch.tensor([100.0, 320.0, 15.5, 50.0]))

    def forward(self, readings, bypass):
        # readings: (K, 4) redundant channels; bypass: (K,) 1.0 = channel in test/bypass
        votes = []
        for k in range(readings.shape[0]):
            if bypass[k] > 0.5:
                continue
            votes.append(channel_trip(readings[k]))
        if readings.shape[0] >= 3:
            needed = 2
        else:
            needed = 1
        if len(votes) == 0:
            trip = torch.tensor(True)  # everything bypassed: not allowed, trip
            n_trips = torch.tensor(0)
        else:
            n_trips = torch.stack(votes).sum()
            trip = n_trips >= needed
        score = torch.sigmoid(self.precursor(readings / self.nominal - 1.0)).mean()
        return trip.float(), n_trips.float(), score


def model():
    torch.manual_seed(48007)
    return ScramLogic().eval()


NORMAL = [101.0, 321.0, 15.4, 48.0]


def example_inputs():
    return (torch.tensor([NORMAL, [111.0, 321.0, 15.4, 48.0], [100.0, 322.0, 15.5, 5.0]]),
            torch.tensor([0.0, 0.0, 0.0]))


def dynamic_shapes():
    return ({0: torch.export.Dim("channels", min=2, max=8)}, {0: torch.export.Dim("channels", min=2, max=8)})


def verify_inputs():
    return [
        example_inputs(),  # 2oo3: one healthy, one high flux, one low SG level -> trip
        (torch.tensor([NORMAL, [101.0, 335.0, 15.4, 48.0], NORMAL, [100.0, 320.0, 11.0, 50.0]]),
         torch.tensor([0.0, 0.0, 0.0, 1.0])),  # 2oo4 with one bypassed (the low-pressure one): only high temp -> no trip
        (torch.tensor([NORMAL, [100.0, 320.0, 17.0, 50.0]]), torch.tensor([0.0, 0.0])),  # 1oo2: high pressure -> trip
        (torch.tensor([[100.0, -1.0, 15.5, 50.0], NORMAL, NORMAL]), torch.tensor([0.0, 0.0, 0.0])),  # failed transmitter only
        (torch.tensor([NORMAL, NORMAL]), torch.tensor([1.0, 1.0])),  # all bypassed -> fail-safe trip
        (torch.tensor([[100.0, 320.0, 12.0, 50.0], NORMAL]), torch.tensor([0.0, 0.0])),  # low pressure trip, 1oo2
    ]
