"""Cattle weight estimation from depth-camera keypoints, per-animal loop over detected animals (typical)."""
import torch
from torch import nn


def body_length(kp: torch.Tensor) -> torch.Tensor:
    # kp: [K, 3]; nose=0, tail=1; fall back to withers=2 when the nose is occluded (depth 0)
    if kp[0, 2] < 0.1:
        front = kp[2]
    else:
        front = kp[0]
    return (front[:2] - kp[1, :2]).norm()


class WeightNet(nn.Module):
    def __init__(self, k=6, hidden=32):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(k * 3 + 1, hidden), nn.ReLU(), nn.Linear(hidden, 1))
        self.calf_cutoff = 1.0

    def forward(self, kps: torch.Tensor, n_animals: torch.Tensor):
        # kps: [M, K, 3] padded, n_animals: scalar int64 with the valid count
        n = int(n_animals.item())
        weights = []
        for i in range(n):
            kp = kps[i]
            length = body_length(kp)
            w = self.mlp(torch.cat([kp.flatten(), length.reshape(1)])).squeeze(-1)
            w = torch.nn.functional.softplus(w) * 100.0 + length * 50.0
            if length < self.calf_cutoff:
                w = w * 0.5
            weights.append(w)
        if n == 0:
            return torch.zeros(0), torch.zeros(())
        out = torch.stack(weights)
        return out, out.mean()


def model():
    torch.manual_seed(4)
    return WeightNet().eval()


def _kps(m, occluded=(), small=()):
    g = torch.Generator().manual_seed(5)
    kp = torch.rand(m, 6, 3, generator=g) + 0.5
    kp[:, 1, :2] = 0.0
    kp[:, 0, :2] = 1.5
    kp[:, 2, :2] = 1.2
    for i in occluded:
        kp[i, 0, 2] = 0.0
    for i in small:
        kp[i, 0, :2] = 0.4
        kp[i, 2, :2] = 0.4
    return kp


def example_inputs():
    return (_kps(4, occluded=(1,)), torch.tensor(3))


def dynamic_shapes():
    return ({0: torch.export.Dim("slots", min=2, max=32)}, None)


def verify_inputs():
    return [(_kps(4), torch.tensor(0)), (_kps(6, small=(0, 2)), torch.tensor(5)),
            (_kps(2, occluded=(0,), small=(1,)), torch.tensor(2)), (_kps(3), torch.tensor(1))]
