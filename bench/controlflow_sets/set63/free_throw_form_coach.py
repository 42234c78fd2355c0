"""Basketball free-throw form coach working on 2-D pose keypoints.

Kind T.  Constructs: 1, 2, 3, 8.
From a COCO-17 keypoint track of the shooter (x, y in image units, confidence)
it measures elbow extension, knee dip and release height, picks coaching
cues with an if/elif chain, and estimates the make probability with a small
temporal CNN.  High-frame-rate clips are subsampled; clips where the shooting
arm is not visible are rejected.
"""
import math

import torch
import torch.nn as nn
from torch.export import Dim

FRAMES = Dim("frames", min=8, max=240)
SHOULDER, ELBOW, WRIST, HIP, KNEE, ANKLE = 6, 8, 10, 12, 14, 16   # right side
ARM = [SHOULDER, ELBOW, WRIST]


def joint_angle(a, b, c):
    # angle at b (degrees) for tracks of 2-D points [frames, 2]
    u, v = a - b, c - b
    cos = (u * v).sum(-1) / (u.norm(dim=-1) * v.norm(dim=-1) + 1e-8)
    return torch.rad2deg(torch.acos(cos.clamp(-1.0, 1.0)))


class FormCoach(nn.Module):
    def __init__(self, max_frames=60):
        super().__init__()
        self.temporal = nn.Sequential(nn.Conv1d(34, 32, 5, padding=2), nn.ReLU(), nn.Conv1d(32, 32, 5, padding=2))
        self.head = nn.Linear(32 + 3, 1)
        self.max_frames = max_frames

    def forward(self, kps):
        if kps[:, ARM, 2].mean() < 0.3:
            return torch.zeros(3), torch.zeros(3), torch.zeros(())   # shooting arm occluded

        if kps.shape[0] > self.max_frames:
            kps = kps[::2]
        xy = kps[..., :2]
        ext = joint_angle(xy[:, SHOULDER], xy[:, ELBOW], xy[:, WRIST]).max()
        dip = joint_angle(xy[:, HIP], xy[:, KNEE], xy[:, ANKLE]).min()
        torso = (xy[:, HIP, 1] - xy[:, SHOULDER, 1]).mean()
        release_h = ((xy[:, SHOULDER, 1] - xy[:, WRIST, 1]) / torso).max()

        feedback = torch.zeros(3)            # [extend elbow, bend knees, release higher]
        if ext < 160.0 and dip > 150.0:
            feedback = torch.tensor([1.0, 1.0, 0.0])     # arm-only push shot
        elif ext < 160.0 or not release_h > 0.5:
            feedback = torch.tensor([1.0, 0.0, 1.0])     # short, flat release
        elif dip > 150.0:
            feedback = torch.tensor([0.0, 1.0, 0.0])

        stats = torch.stack([ext / 180.0, dip / 180.0, release_h])
        h = self.temporal(xy.reshape(xy.shape[0], 34).t().unsqueeze(0)).mean(dim=-1).squeeze(0)
        make_prob = torch.sigmoid(self.head(torch.cat([h, stats]))).squeeze(-1)
        return feedback, stats, make_prob


def model():
    torch.manual_seed(63004)
    return FormCoach().eval()


def _shot(n, seed, ext=175.0, dip=120.0, arm_elev=80.0, arm_conf=0.9):
    """Synthetic shot: knees dip to `dip` degrees and straighten, the elbow opens
    from 70 degrees to `ext`; the upper arm points `arm_elev` degrees above horizontal."""
    g = torch.Generator().manual_seed(seed)
    t = torch.linspace(0.0, 1.0, n)
    kps = torch.zeros(n, 17, 3)
    kps[..., 2] = 0.9
    knee_ang = torch.deg2rad(180.0 - (180.0 - dip) * torch.sin(math.pi * t).clamp(min=0))
    leg = 0.15
    half = knee_ang / 2
    ankle = torch.stack([torch.full((n,), 0.5), torch.full((n,), 0.95)], dim=1)
    hip = ankle - torch.stack([torch.zeros(n), 2 * leg * torch.sin(half)], dim=1)
    knee = (hip + ankle) / 2 + torch.stack([leg * torch.cos(half), torch.zeros(n)], dim=1)
    shoulder = hip - torch.tensor([0.0, 0.25])
    elev = math.radians(arm_elev)
    upper = 0.12 * torch.tensor([math.cos(elev), -math.sin(elev)])
    elbow = shoulder + upper
    elbow_ang = torch.deg2rad(70.0 + (ext - 70.0) * t)
    # forearm direction: rotate the upper-arm direction by (180 - elbow angle) towards the basket
    rot = math.pi - elbow_ang
    ux, uy = upper[0] / 0.12, upper[1] / 0.12
    fx = ux * torch.cos(rot) - uy * torch.sin(rot)
    fy = ux * torch.sin(rot) + uy * torch.cos(rot)
    wrist = elbow + 0.12 * torch.stack([fx, fy], dim=1)
    for idx, p in [(SHOULDER, shoulder), (ELBOW, elbow), (WRIST, wrist), (HIP, hip), (KNEE, knee), (ANKLE, ankle)]:
        kps[:, idx, :2] = p
    others = [i for i in range(17) if i not in (SHOULDER, ELBOW, WRIST, HIP, KNEE, ANKLE)]
    kps[:, others, :2] = shoulder.unsqueeze(1) + 0.05 * torch.randn(n, len(others), 2, generator=g)
    kps[:, :, :2] += 0.001 * torch.randn(n, 17, 2, generator=g)
    kps[:, ARM, 2] = arm_conf
    return (kps,)


def example_inputs():
    return _shot(45, 1)


def dynamic_shapes():
    return ({0: FRAMES},)


def verify_inputs():
    return [
        example_inputs(),                              # good form: no cue (feedback keeps its zeros)
        _shot(30, 2, arm_conf=0.1),                    # arm occluded: early return
        _shot(120, 3, ext=140.0, dip=170.0),           # 120 fps clip -> subsampled; arm-only push shot
        _shot(40, 4, ext=140.0, dip=120.0),            # short elbow: elif via 1st `or` operand
        _shot(50, 5, ext=175.0, dip=120.0, arm_elev=5.0),  # flat release: elif via `not release_h > 0.5`
        _shot(8, 6, ext=175.0, dip=170.0),             # stiff legs only: last elif
    ]
