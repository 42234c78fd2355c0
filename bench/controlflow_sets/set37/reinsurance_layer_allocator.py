"""Excess-of-loss reinsurance programme: cede a year's catastrophe events to layers.

Each event's ground-up loss (in $M) runs through the tower of layers in order.
A layer pays the part of the loss above its attachment, up to its limit, until
its annual aggregate limit is used up.  A small learned model then estimates
the reinstatement premium from how much of each layer was consumed.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class XoLProgramme(nn.Module):
    def __init__(self):
        super().__init__()
        # (attachment, per-event limit, annual aggregate limit), lowest layer first
        self.layers = [(5.0, 10.0, 20.0), (15.0, 25.0, 25.0), (40.0, 60.0, 60.0)]
        self.max_ceded_share = 0.8
        self.pricing = nn.Sequential(nn.Linear(2 * len(self.layers), 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, losses):
        capacity = torch.tensor([agg for _, _, agg in self.layers])
        eye = torch.eye(len(self.layers))
        rows = []
        for i in range(losses.shape[0]):
            loss = losses[i]
            row = [torch.zeros(()) for _ in self.layers]
            for j, (attach, limit, _) in enumerate(self.layers):
                if loss <= attach:
                    break                      # higher layers attach even later
                if capacity[j] < 1e-3:
                    continue                   # aggregate exhausted for this year
                rec = torch.clamp(loss - attach, max=limit)
                rec = torch.minimum(rec, capacity[j])
                capacity = capacity - rec * eye[j]
                row[j] = rec
            rows.append(torch.stack(row))
        recoveries = torch.stack(rows)              # [events, layers]

        ceded = recoveries.sum()
        net = losses - recoveries.sum(1)
        share = ceded / losses.sum()
        if share > self.max_ceded_share:
            # regulator flag: programme would be mostly risk transfer; cap at max share
            net = net + (share - self.max_ceded_share) * losses
        agg = torch.tensor([a for _, _, a in self.layers])
        used = 1.0 - capacity / agg
        feats = torch.cat([used, recoveries.max(0).values / 100.0])
        premium = torch.nn.functional.softplus(self.pricing(feats))
        return recoveries, net, premium


def model():
    torch.manual_seed(8)
    return XoLProgramme().eval()


def example_inputs():
    return (torch.tensor([3.0, 12.0, 7.5, 30.0, 2.0, 18.0, 9.0]),)


def dynamic_shapes():
    return ({0: Dim("events", min=2, max=64)},)


def verify_inputs():
    return [
        example_inputs(),                              # layer-1 aggregate runs out mid-year (continue), breaks at attachments
        (torch.tensor([1.0, 4.0]),),                   # all losses below retention -> break on first layer, share 0
        (torch.tensor([120.0, 90.0, 70.0]),),          # big events reach the top layer (inner loop never breaks)
        (torch.tensor([64.0, 6.0]),),                  # ceded share 60/70 > 0.8 -> flagged
        (torch.tensor([2.0, 6.0, 9.0, 14.0, 3.5, 4.0, 8.0, 11.0]),),  # only layer 1 touched
    ]
