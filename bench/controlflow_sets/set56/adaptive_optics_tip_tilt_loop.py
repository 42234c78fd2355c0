"""Tip-tilt loop of a small telescope adaptive-optics system.

Each wavefront-sensor frame gives the star's centroid offset (arcsec, x/y) in
sky coordinates.  The fast steering mirror runs an integrator with a small
learned predictive feed-forward (vibration from the dome fans); when the mirror
nears the end of its stroke the accumulated command is offloaded to the mount,
and when the star leaves the capture radius the loop is opened for that frame.
"""
import torch
import torch.nn as nn


class TipTiltLoop(nn.Module):
    def __init__(self):
        super().__init__()
        self.history = 4
        self.predictor = nn.Linear(2 * self.history, 2)
        self.gain = 0.45
        self.capture_radius = 1.5    # arcsec
        self.stroke = 2.0            # arcsec
        self.offload_fraction = 0.8

    def forward(self, centroids, mirror):
        # centroids: (frames, 2) tilt arriving at the telescope; mirror: (2,) current command
        cmd = mirror.clone()
        mount = torch.zeros(2)
        past = [torch.zeros(2) for _ in range(self.history)]
        commands, residuals = [], []
        offloads, lost = 0, 0
        for t in range(centroids.shape[0]):
            err = centroids[t] - mount - cmd
            if err.norm() > self.capture_radius:
                # star outside the capture radius: open the loop and park the mirror
                cmd = torch.zeros(2)
                lost += 1
                commands.append(cmd + mount)
                continue
            residuals.append(err)
            past = past[1:] + [err]
            cmd = cmd + self.gain * err + 0.05 * torch.tanh(self.predictor(torch.cat(past)))
            if (cmd.abs() > self.offload_fraction * self.stroke).any():
                mount = mount + cmd
                cmd = torch.zeros(2)
                offloads += 1
            commands.append(cmd + mount)
        rms = torch.stack(residuals).pow(2).sum(1).mean().sqrt() if residuals else torch.zeros(())
        return torch.stack(commands), torch.tensor([offloads, lost]), rms.reshape(1)


def model():
    torch.manual_seed(5610)
    return TipTiltLoop().eval()


def _seeing(frames, seed, drift=(0.0, 0.0), amp=0.3, gust_at=None):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(frames, dtype=torch.float32)
    vib = amp * torch.stack([torch.sin(0.7 * t), torch.cos(0.45 * t)], dim=1)
    tilt = vib + 0.05 * torch.randn(frames, 2, generator=g)
    tilt = tilt + torch.tensor(drift)[None] * t[:, None]
    if gust_at is not None:
        tilt[gust_at:gust_at + 3] += torch.tensor([3.0, -2.5])
    return tilt


def example_inputs():
    return (_seeing(100, 1), torch.zeros(2))


def dynamic_shapes():
    f = torch.export.Dim("frames", min=2, max=500)
    return ({0: f}, None)


def verify_inputs():
    return [
        # 100 frames of fan vibration, loop closed the whole time, no offload
        example_inputs(),
        # min 2 frames, star 2.4" off (mirror parked at 0) -> both frames lost, no residuals
        (torch.tensor([[2.4, 0.3], [2.2, 0.4]]), torch.zeros(2)),
        # max 500 frames with slow field-rotation drift -> repeated offloads to the mount
        (_seeing(500, 2, drift=(0.02, -0.015)), torch.tensor([0.1, -0.1])),
        # 60 frames with a wind gust at frame 30 -> loop opens for the gust, then recaptures
        (_seeing(60, 3, gust_at=30), torch.zeros(2)),
    ]
