"""Multi-target tracker for an automotive / drone radar (alpha-beta filter, greedy gating).

Inputs: existing tracks (K, 5) = [x, y, vx, vy, alive] with K static, and detections
(M, 2) = [x, y], M dynamic. Tracks are predicted, each live track takes its nearest unused
detection inside the gate, missed tracks coast, and every unused detection spawns a new track.
Output: updated tracks and newly born tracks (data-dependent count) concatenated.
"""

import torch
from torch import nn

DT = 0.1


class Tracker(nn.Module):
    def __init__(self, gate: float = 3.0, alpha: float = 0.6, beta: float = 0.3):
        super().__init__()
        self.gate, self.alpha, self.beta = gate, alpha, beta
        # learned clutter model: detections with low quality do not spawn tracks
        self.quality = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))
        self.register_buffer("F", torch.tensor([[1, 0, DT, 0], [0, 1, 0, DT], [0, 0, 1, 0], [0, 0, 0, 1.0]]))

    def forward(self, tracks: torch.Tensor, dets: torch.Tensor):
        pred = tracks[:, :4] @ self.F.T
        used = torch.zeros(dets.shape[0], dtype=torch.bool)
        out = []
        for k in range(tracks.shape[0]):
            if tracks[k, 4] < 0.5:
                out.append(tracks[k])
                continue
            d = (dets - pred[k, :2]).norm(dim=1)
            d = torch.where(used, torch.full_like(d, 1e6), d)
            j = torch.argmin(d)
            if d[j] > self.gate:
                # coast: keep the prediction, age the track
                out.append(torch.cat([pred[k], tracks[k, 4:5] - 0.25]))
                continue
            resid = dets[j] - pred[k, :2]
            pos = pred[k, :2] + self.alpha * resid
            vel = pred[k, 2:] + (self.beta / DT) * resid
            out.append(torch.cat([pos, vel, torch.ones(1)]))
            used = used | (torch.arange(dets.shape[0]) == j)
        born = []
        for j in range(dets.shape[0]):
            if used[j]:
                continue
            # near detections are trusted, far ones need a good learned quality score
            q = 0.1 * self.quality(dets[j] / 50.0).squeeze() + 1.5 - dets[j].norm() / 30.0
            if q > 0:
                born.append(torch.cat([dets[j], torch.zeros(2), torch.ones(1)]))
        tracks_out = torch.stack(out)
        if len(born) > 0:
            tracks_out = torch.cat([tracks_out, torch.stack(born)], dim=0)
        return tracks_out


def model() -> nn.Module:
    torch.manual_seed(0)
    return Tracker().eval()


def example_inputs() -> tuple:
    tracks = torch.tensor([[0.0, 0.0, 10.0, 0.0, 1.0], [20.0, 5.0, 0.0, -5.0, 1.0], [0.0, 0.0, 0.0, 0.0, 0.0]])
    dets = torch.tensor([[1.1, 0.2], [19.8, 4.4], [40.0, -10.0]])
    return tracks, dets


def dynamic_shapes():
    return (None, {0: torch.export.Dim("dets", min=2, max=128)})


def verify_inputs() -> list:
    tracks = example_inputs()[0]
    return [
        (tracks, torch.tensor([[50.0, 50.0], [-30.0, 20.0]])),        # all missed, far clutter
        (tracks, torch.tensor([[1.0, 0.1], [1.3, -0.1], [20.2, 4.6], [-45.0, -45.0], [5.0, 30.0]])),
        (tracks, torch.tensor([[1.1, 0.2], [19.8, 4.4]])),           # every detection associated
    ]
