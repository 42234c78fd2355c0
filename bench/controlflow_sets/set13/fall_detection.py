"""Wrist/waist accelerometer fall detector for a wearable.

Impact screening on the acceleration magnitude, then a 1-D CNN looks at the window after the
impact (zero-padded when the recording ends early) and a posture check halves the score when
the wearer is not lying down afterwards.
"""

import torch
import torch.nn.functional as F
from torch import nn


class FallDetector(nn.Module):
    def __init__(self, impact_g: float = 2.5, win: int = 32):
        super().__init__()
        self.impact_g = impact_g
        self.win = win
        self.enc = nn.Sequential(nn.Conv1d(3, 16, 5, padding=2), nn.ReLU(),
                                 nn.Conv1d(16, 16, 5, padding=2), nn.ReLU())
        self.head = nn.Linear(16, 1)

    def forward(self, acc: torch.Tensor):
        # acc: (T, 3) in g
        mag = acc.norm(dim=1)
        if mag.max() < self.impact_g:
            return torch.zeros(1), torch.tensor(-1)
        idx = int(torch.argmax(mag).item())
        post = acc[idx: idx + self.win]
        if post.shape[0] < self.win:
            post = F.pad(post, (0, 0, 0, self.win - post.shape[0]))
        feat = self.enc(post.t().unsqueeze(0)).mean(-1)
        prob = torch.sigmoid(self.head(feat)).view(1)
        tail = post[-8:]
        # lying: gravity no longer along the body's vertical (z) axis
        prob = prob if tail[:, 2].abs().mean() < 0.5 else prob * 0.5
        return prob, torch.tensor(idx)


def model() -> nn.Module:
    torch.manual_seed(0)
    return FallDetector().eval()


def _trace(T, impact_at, lying, seed):
    g = torch.Generator().manual_seed(seed)
    acc = torch.zeros(T, 3)
    acc[:, 2] = 1.0
    acc = acc + 0.05 * torch.randn(T, 3, generator=g)
    if impact_at is not None:
        acc[impact_at] = torch.tensor([1.5, 2.0, 3.0])
        if lying:
            acc[impact_at + 1:, 2] = 0.05 * torch.randn(T - impact_at - 1, generator=g)
            acc[impact_at + 1:, 0] = 1.0
    return acc


def example_inputs() -> tuple:
    return (_trace(64, 20, True, 0),)


def dynamic_shapes():
    return ({0: torch.export.Dim("samples", min=16, max=512)},)


def verify_inputs() -> list:
    return [
        (_trace(100, None, False, 1),),   # walking: no impact, early return
        (_trace(40, 30, True, 2),),       # impact near the end: padded window
        (_trace(200, 50, False, 3),),     # bumped the table, still upright
    ]
