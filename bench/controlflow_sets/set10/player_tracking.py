"""Sports player tracker step: constant-velocity prediction, greedy nearest-neighbour
association of this frame's detections to tracks inside a gate, and a new track for
every unmatched detection. Track: [x, y, vx, vy] in metres on the pitch."""
import torch
from torch import nn


def correct(track, det, gate):
    pred = track[:2]
    innov = det - pred
    g = 0.3 if innov.norm() > 0.75 * gate else 0.7
    pos = pred + g * innov
    vel = 0.8 * track[2:] + 0.2 * innov * 25.0
    return torch.cat([pos, vel])


class PlayerTracker(nn.Module):
    def __init__(self):
        super().__init__()
        # learned motion model tweak (e.g. friction), identity + small correction
        self.motion = nn.Linear(4, 4)
        self.dt = 0.04
        self.gate = 1.5

    def forward(self, tracks, dets):
        # tracks: (N, 4), dets: (M, 2)
        vel = tracks[:, 2:] + 0.01 * self.motion(tracks)[:, 2:]
        pred = torch.cat([tracks[:, :2] + vel * self.dt, vel], dim=1)
        cost = torch.cdist(dets, pred[:, :2])                   # (M, N)
        used = torch.zeros(pred.shape[0], dtype=torch.bool)
        updated = pred.clone()
        births = []
        for j in range(dets.shape[0]):
            if used.all():
                births.append(torch.cat([dets[j], torch.zeros(2)]))
                continue
            d = torch.where(used, torch.full_like(cost[j], 1e6), cost[j])
            i = torch.argmax(-d)
            if d[i] > self.gate:
                births.append(torch.cat([dets[j], torch.zeros(2)]))
                continue
            updated[i] = correct(pred[i], dets[j], self.gate)
            used[i] = True
        if len(births) > 0:
            updated = torch.cat([updated, torch.stack(births)], dim=0)
        return updated, used


def model():
    torch.manual_seed(0)
    return PlayerTracker().eval()


def example_inputs():
    tracks = torch.tensor([[10.0, 5.0, 1.0, 0.0], [20.0, 30.0, 0.0, -2.0], [40.0, 12.0, 3.0, 1.0]])
    dets = torch.tensor([[10.1, 5.05], [39.0, 12.3], [20.02, 29.9]])
    return (tracks, dets)


def dynamic_shapes():
    return ({0: torch.export.Dim("N", min=2, max=64)}, {0: torch.export.Dim("M", min=2, max=64)})


def verify_inputs():
    tracks = torch.tensor([[10.0, 5.0, 1.0, 0.0], [20.0, 30.0, 0.0, -2.0]])
    return [
        # more detections than tracks -> all tracks used, one birth; one far detection
        (tracks, torch.tensor([[10.05, 5.0], [20.1, 29.8], [60.0, 60.0], [50.0, 3.0]])),
        # detection far from every track
        (tracks, torch.tensor([[70.0, 10.0], [20.0, 29.95]])),
    ]
