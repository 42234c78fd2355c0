"""Squat rep counter from 2D pose keypoints (fitness app on a phone).

Input: keypoints (T, 17, 3) = COCO (x, y, confidence), T dynamic. Frames with unreliable
legs are skipped; a knee-angle state machine counts reps and records the depth of each rep;
a tiny MLP grades the form of every counted rep (data-dependent number of reps).
"""

import math

import torch
from torch import nn

L_HIP, L_KNEE, L_ANKLE, R_HIP, R_KNEE, R_ANKLE = 11, 13, 15, 12, 14, 16


def joint_angle(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor) -> torch.Tensor:
    v1, v2 = a - b, c - b
    cos = (v1 * v2).sum() / (v1.norm() * v2.norm() + 1e-6)
    return torch.acos(cos.clamp(-1.0, 1.0)) * (180.0 / math.pi)


def knee_angle(frame: torch.Tensor, min_conf: float) -> torch.Tensor:
    left_conf = frame[[L_HIP, L_KNEE, L_ANKLE], 2].min()
    right_conf = frame[[R_HIP, R_KNEE, R_ANKLE], 2].min()
    if left_conf >= right_conf:
        return joint_angle(frame[L_HIP, :2], frame[L_KNEE, :2], frame[L_ANKLE, :2])
    return joint_angle(frame[R_HIP, :2], frame[R_KNEE, :2], frame[R_ANKLE, :2])


class RepCounter(nn.Module):
    def __init__(self, down_deg: float = 100.0, up_deg: float = 160.0, min_conf: float = 0.3):
        super().__init__()
        self.down_deg, self.up_deg, self.min_conf = down_deg, up_deg, min_conf
        self.form = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 1))

    def forward(self, kps: torch.Tensor):
        phase = "up"
        reps = []
        deepest = torch.tensor(180.0)
        angles = []
        for t in range(kps.shape[0]):
            frame = kps[t]
            if frame[11:17, 2].mean() < self.min_conf:
                continue
            ang = knee_angle(frame, self.min_conf)
            angles.append(ang)
            if phase == "up":
                if ang < self.down_deg:
                    phase = "down"
                    deepest = ang
            else:
                deepest = torch.minimum(deepest, ang)
                if ang > self.up_deg:
                    phase = "up"
                    reps.append(deepest)
        depth = torch.stack(reps) if len(reps) > 0 else torch.zeros(0)
        feats = torch.stack([depth / 180.0, torch.ones_like(depth)], dim=1)
        form = torch.sigmoid(self.form(feats).squeeze(-1))
        return torch.tensor(len(reps)), depth, form, torch.stack(angles)


def model() -> nn.Module:
    torch.manual_seed(0)
    return RepCounter().eval()


def _squats(t, n_reps, seed, min_angle=70.0, bad_frames=(), right_better=False):
    g = torch.Generator().manual_seed(seed)
    kps = torch.rand(t, 17, 3, generator=g)
    kps[:, :, 2] = 0.9
    kps[:, [L_HIP, L_KNEE, L_ANKLE], 2] = 0.95
    if right_better:
        kps[:, [L_HIP, L_KNEE, L_ANKLE], 2] = 0.6
    phase = torch.linspace(0, n_reps * 2 * math.pi, t)
    ang = math.radians(min_angle) + (math.radians(172.0) - math.radians(min_angle)) * (0.5 + 0.5 * torch.cos(phase))
    ang = ang + 0.01 * torch.randn(t, generator=g)
    for hip, knee, ankle in ((L_HIP, L_KNEE, L_ANKLE), (R_HIP, R_KNEE, R_ANKLE)):
        kps[:, knee, 0], kps[:, knee, 1] = 0.5, 0.6
        kps[:, ankle, 0], kps[:, ankle, 1] = 0.5, 0.9
        kps[:, hip, 0] = 0.5 + 0.3 * torch.sin(ang)
        kps[:, hip, 1] = 0.6 + 0.3 * torch.cos(ang)
    for b in bad_frames:
        kps[b, 11:17, 2] = 0.1
    return kps


def example_inputs() -> tuple:
    return (_squats(60, 3, 1),)


def dynamic_shapes():
    return ({0: torch.export.Dim("frames", min=4, max=600)},)


def verify_inputs() -> list:
    return [
        (_squats(40, 2, 2, min_angle=120.0),),                       # too shallow: no rep
        (_squats(90, 4, 3, bad_frames=(5, 6, 30), right_better=True),),
    ]
