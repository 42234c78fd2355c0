"""Blind-spot / rear cross-traffic monitor for a car's rear corner radars.

Tracks are sorted by range. A track in the blind-spot zone raises a side alert; a fast vehicle
approaching from behind raises one if its time-to-zone is short. With the turn signal on the
alert escalates to a warning. A small learned head turns the per-side summary into chime volume.
"""
import torch
import torch.nn as nn


class BlindSpotMonitor(nn.Module):
    def __init__(self, max_tracks=32, min_speed=3.0):
        super().__init__()
        self.max_tracks = max_tracks
        self.min_speed = min_speed
        self.chime = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))

    def forward(self, tracks, turn_signal, ego_speed):
        # tracks: (N, 5) = x (m, + ahead), y (m, + left), vx, vy (relative m/s), confidence
        if ego_speed.item() < self.min_speed:
            # parking manoeuvre: system inactive
            return torch.zeros(2), torch.full((2,), 99.0), torch.zeros(2)
        if tracks.shape[0] > self.max_tracks:
            tracks = tracks[: self.max_tracks]

        alerts = torch.zeros(2)
        ttc = torch.full((2,), 99.0)
        for i in range(tracks.shape[0]):
            x, y, vx, vy, conf = tracks[i]
            if torch.sqrt(x * x + y * y) > 60.0:
                break  # sorted by range: everything after this is far away
            if conf < 0.3:
                continue  # clutter / ghost target
            side = 0 if y > 0 else 1
            if -7.0 < x < 1.0 and 0.8 < torch.abs(y) < 4.5:
                alerts[side] = 1.0
                ttc[side] = torch.zeros(())
            elif x < -7.0 and vx > 0.5:
                t = (-7.0 - x) / vx
                if t < 3.0:
                    alerts[side] = torch.maximum(alerts[side], torch.tensor(0.5))
                    ttc[side] = torch.minimum(ttc[side], t)

        level = alerts.clone()
        for s in range(2):
            if alerts[s] > 0 and turn_signal[s] > 0.5:
                level[s] = 2.0  # driver intends to change lane into an occupied zone
        feats = torch.stack([level, ttc / 99.0, turn_signal, ego_speed.expand(2) / 40.0], dim=1)
        volume = torch.sigmoid(self.chime(feats)).squeeze(1) * (level > 0).float()
        return level, ttc, volume


def model():
    torch.manual_seed(48003)
    return BlindSpotMonitor().eval()


def _tracks(rows, n_far=0):
    t = torch.tensor(rows, dtype=torch.float32).reshape(-1, 5)
    if n_far:
        far = torch.stack([
            -70.0 - torch.arange(n_far, dtype=torch.float32),
            torch.full((n_far,), 3.0), torch.zeros(n_far), torch.zeros(n_far), torch.full((n_far,), 0.9)
        ], dim=1)
        t = torch.cat([t, far])
    return t


def example_inputs():
    return (
        _tracks([[-3.0, 2.5, 0.2, 0.0, 0.9],      # left blind spot
                 [-12.0, -3.0, 4.0, 0.0, 0.8],    # right, closing fast (t = 1.25 s)
                 [-20.0, 3.0, 1.0, 0.0, 0.9],     # left, closing slowly (t = 13 s)
                 [-25.0, -3.0, -1.0, 0.0, 0.9],   # right, falling back
                 [-8.0, 2.0, 2.0, 0.0, 0.1]],     # low-confidence ghost
                n_far=2),
        torch.tensor([1.0, 0.0]),
        torch.tensor([25.0]),
    )


def dynamic_shapes():
    return ({0: torch.export.Dim("tracks", min=2, max=64)}, None, None)


def verify_inputs():
    return [
        example_inputs(),  # zone alert left + signal -> warning; fast closing right; slow; receding; ghost (continue); break on far track
        (_tracks([[-3.0, 2.5, 0.0, 0.0, 0.9], [-12.0, -3.0, 4.0, 0.0, 0.8]]),
         torch.tensor([0.0, 1.0]), torch.tensor([1.0])),  # parking speed -> early return
        (_tracks([[-10.0, 1.0, 0.8, 0.0, 0.9], [2.0, -3.0, 0.0, 0.0, 0.9]], n_far=38),
         torch.tensor([0.0, 1.0]), torch.tensor([30.0])),  # 40 tracks > 32 -> truncated; no alert, signal on (alert test false)
        (_tracks([[-4.0, -2.0, 0.0, 0.0, 0.9], [-5.0, 10.0, 0.0, 0.0, 0.9]]),
         torch.tensor([0.0, 0.0]), torch.tensor([20.0])),  # right zone alert, no signal; lateral too far; loop ends without break
    ]
