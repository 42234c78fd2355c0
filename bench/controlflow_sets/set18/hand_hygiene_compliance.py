"""Hand-hygiene station camera: pose-feature clip -> compliance score. A helper decides whether the
clip is long/visible enough to score at all, and returns early otherwise."""
import torch
from torch import nn

FEAT = 20


def visibility_gate(x, min_vis):
    vis = x[..., -1].mean()
    if vis < min_vis:
        return torch.zeros(x.shape[0]), vis
    score = x[..., :4].abs().mean(dim=(1, 2))
    return score, vis


class HygieneScorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(FEAT, 24, batch_first=True)
        self.head = nn.Linear(24, 6)   # 6 WHO hand-rub steps

    def forward(self, clip):
        # clip: (B, T, FEAT), last feature = visibility in [0, 1]
        motion, vis = visibility_gate(clip, 0.3)
        if vis < 0.3:
            return torch.zeros(clip.shape[0], 6), motion
        out, _ = self.gru(clip)
        steps = torch.sigmoid(self.head(out).amax(dim=1))
        done = steps.mean()
        if done > 0.5:
            verdict = motion + 1.0
        else:
            verdict = motion - 1.0
        return steps, verdict


def model():
    torch.manual_seed(0)
    return HygieneScorer().eval()


def _clip(T, vis, level):
    x = torch.full((2, T, FEAT), level)
    x[..., -1] = vis
    return x


def example_inputs():
    return (_clip(16, 0.9, 1.0),)


def dynamic_shapes():
    return ({1: torch.export.Dim("frames", min=2, max=300)},)


def verify_inputs():
    return [(_clip(10, 0.1, 1.0),), (_clip(40, 0.8, -1.0),), (_clip(5, 0.8, 1.0),)]
