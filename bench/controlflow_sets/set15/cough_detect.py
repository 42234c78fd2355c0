"""Frame-level cough detector on log-mel frames for an always-on earbud / phone.

Input: log-mel spectrogram (B, T, 40), T dynamic. Silent frames are skipped (probability 0),
the rest go through a small MLP; a cough event is reported when the peak probability is high.
"""

import torch
from torch import nn

N_MELS = 40


class CoughDetector(nn.Module):
    def __init__(self, silence_level: float = -6.0):
        super().__init__()
        self.silence_level = silence_level
        self.frame_net = nn.Sequential(nn.Linear(N_MELS, 64), nn.ReLU(), nn.Linear(64, 1))
        self.smooth = nn.Conv1d(1, 1, 3, padding=1, bias=False)
        with torch.no_grad():
            self.smooth.weight.fill_(1.0 / 3.0)

    def forward(self, mel: torch.Tensor):
        b = mel.shape[0]
        probs = []
        for t in range(mel.shape[1]):
            frame = mel[:, t]
            if frame.mean() < self.silence_level:
                probs.append(torch.zeros(b))
                continue
            # Broadband energy burst is the main cough cue; the MLP refines it.
            logit = self.frame_net(frame).squeeze(-1) * 0.1 + 2.0 * (frame.std(dim=-1) - 1.5)
            probs.append(torch.sigmoid(logit))
        p = torch.stack(probs, dim=1)
        p = self.smooth(p.unsqueeze(1)).squeeze(1)
        peak = p.max()
        if peak > 0.5:
            event = torch.ones(b)
            frame_idx = torch.arange(p.shape[1], dtype=torch.float32)
            onset = torch.where(p > 0.5, frame_idx, float(p.shape[1])).amin(dim=1)
        else:
            event = torch.zeros(b)
            onset = torch.full((b,), -1.0)
        return p, event, onset


def model() -> nn.Module:
    torch.manual_seed(0)
    return CoughDetector().eval()


def _clip(t, loud, seed):
    g = torch.Generator().manual_seed(seed)
    x = -8.0 + 0.3 * torch.randn(1, t, N_MELS, generator=g)
    for s, e, spread in loud:
        x[:, s:e] = 0.5 * torch.randn(1, e - s, N_MELS, generator=g) * spread
    return x


def example_inputs() -> tuple:
    return (_clip(24, [(5, 9, 6.0), (15, 18, 1.0)], 1),)


def dynamic_shapes():
    return ({1: torch.export.Dim("frames", min=4, max=200)},)


def verify_inputs() -> list:
    return [
        (_clip(16, [(3, 12, 1.0)], 2),),        # speech-like, no cough
        (_clip(50, [(0, 50, 7.0)], 3),),        # all loud, cough
        (_clip(10, [(2, 4, 0.8)], 4),),
    ]
