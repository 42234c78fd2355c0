"""Routing and wavelength assignment (first-fit) on a linear DWDM chain of ROADM nodes.

Each lightpath request (src, dst node) needs the same wavelength free on every link it crosses.
First-fit scans wavelengths in order; longer paths and higher channel numbers have worse OSNR,
so once a free channel fails the OSNR budget the request is blocked. A small learned traffic model
predicts per-link utilisation for the planning dashboard.
"""
import math

import torch
import torch.nn as nn


def osnr_db(hops, channel):
    # ASE accumulation per amplified span plus a tilt penalty toward the band edge
    return 31.0 - 10.0 * math.log10(hops) - 0.15 * channel


class WavelengthAssigner(nn.Module):
    def __init__(self, min_osnr=24.0):
        super().__init__()
        self.min_osnr = min_osnr
        self.traffic = nn.Sequential(nn.Linear(1, 8), nn.ReLU(), nn.Linear(8, 1))

    def forward(self, requests, occupancy):
        # requests: (R, 2) int64 node ids; occupancy: (L, W) 1.0 where a channel is in use on a link
        occ = occupancy.clone()
        assigned = []
        for i in range(requests.shape[0]):
            a = int(requests[i, 0])
            b = int(requests[i, 1])
            s, d = (a, b) if a < b else (b, a)
            if s == d or d > occ.shape[0]:
                assigned.append(torch.tensor(-2.0))  # malformed request
                continue
            channel = torch.tensor(-1.0)  # blocked unless a channel is found
            for w in range(occ.shape[1]):
                if occ[s:d, w].max() > 0.5:
                    continue
                if osnr_db(d - s, w) < self.min_osnr:
                    break  # every later channel is even worse
                occ[s:d, w] = 1.0
                channel = torch.tensor(float(w))
                break
            assigned.append(channel)
        assigned = torch.stack(assigned)
        blocking = (assigned == -1).float().mean()
        util = occ.mean(dim=1, keepdim=True)
        forecast = torch.sigmoid(self.traffic(util)).squeeze(1)
        return assigned, occ, blocking, forecast


def model():
    torch.manual_seed(48015)
    return WavelengthAssigner().eval()


def example_inputs():
    occ = torch.zeros(6, 8)
    occ[1, 0] = 1.0
    occ[2:4, 1] = 1.0
    requests = torch.tensor([[0, 3], [4, 2], [1, 2], [0, 5], [5, 0], [2, 2]])
    return requests, occ


def dynamic_shapes():
    return ({0: torch.export.Dim("requests", min=2, max=32)},
            {0: torch.export.Dim("links", min=2, max=16), 1: torch.export.Dim("channels", min=2, max=48)})


def verify_inputs():
    full = torch.ones(3, 4)
    full[:, 3] = 0.0
    return [
        example_inputs(),  # first-fit skips busy channels (continue), reversed request, 5-hop path blocked by OSNR, s == d
        (torch.tensor([[0, 3], [0, 3], [1, 9]]), full),  # only channel 3 free: first gets it, second blocked (loop ends), bad node id
        (torch.tensor([[0, 1], [1, 2]]), torch.zeros(2, 2)),  # min sizes, one-hop paths, channel 0 each
    ]
