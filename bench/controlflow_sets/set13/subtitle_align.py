"""Subtitle-to-audio timing alignment with dynamic time warping (DTW).

Subtitle lines and audio frames are embedded into a shared space (the embedders are small
projections here); DTW fills a cost table with nested Python loops (a list of rows read back
while filling), then backtracks to find the first and last audio frame of each subtitle line.
"""

import torch
import torch.nn.functional as F
from torch import nn


class SubtitleAligner(nn.Module):
    def __init__(self, d_text: int = 24, d_audio: int = 20, d: int = 16):
        super().__init__()
        self.text_proj = nn.Linear(d_text, d)
        self.audio_proj = nn.Linear(d_audio, d)

    def forward(self, text: torch.Tensor, audio: torch.Tensor):
        # text: (S, d_text) one row per subtitle line; audio: (A, d_audio) frames
        t = F.normalize(self.text_proj(text), dim=-1)
        a = F.normalize(self.audio_proj(audio), dim=-1)
        cost = 1.0 - t @ a.t()  # (S, A)
        S, A = cost.shape[0], cost.shape[1]
        rows = []
        for i in range(S):
            row = []
            for j in range(A):
                c = cost[i, j]
                if i == 0 and j == 0:
                    acc = c
                elif i == 0:
                    acc = c + row[j - 1]
                elif j == 0:
                    acc = c + rows[i - 1][j]
                else:
                    acc = c + torch.minimum(torch.minimum(rows[i - 1][j], row[j - 1]), rows[i - 1][j - 1])
                row.append(acc)
            rows.append(row)
        # backtrack from the end; record the frame span of each line
        i, j = S - 1, A - 1
        first = [A] * S
        last = [0] * S
        last[i] = j
        while i > 0 or j > 0:
            first[i] = j
            if i == 0:
                j -= 1
            elif j == 0:
                i -= 1
                last[i] = j
            else:
                diag, up, left = rows[i - 1][j - 1], rows[i - 1][j], rows[i][j - 1]
                if diag <= up and diag <= left:
                    i, j = i - 1, j - 1
                    last[i] = j
                elif up < left:
                    i -= 1
                    last[i] = j
                else:
                    j -= 1
        first[0] = 0
        return torch.tensor(first), torch.tensor(last), rows[S - 1][A - 1]


def model() -> nn.Module:
    torch.manual_seed(0)
    return SubtitleAligner().eval()


def _pair(S, A, seed):
    """Audio frames are noisy copies of a projection of the line being spoken."""
    g = torch.Generator().manual_seed(seed)
    text = torch.randn(S, 24, generator=g)
    mix = torch.randn(24, 20, generator=torch.Generator().manual_seed(99))
    cuts = sorted(torch.randperm(A - 1, generator=g)[: S - 1].add(1).tolist())
    owner = torch.zeros(A, dtype=torch.long)
    for c in cuts:
        owner[c:] += 1
    audio = text[owner] @ mix / 5.0 + 0.3 * torch.randn(A, 20, generator=g)
    return text, audio


def example_inputs() -> tuple:
    return _pair(4, 20, 0)


def dynamic_shapes():
    return ({0: torch.export.Dim("lines", min=2, max=16)}, {0: torch.export.Dim("frames", min=2, max=64)})


def verify_inputs() -> list:
    g = torch.Generator().manual_seed(6)
    # more lines than frames (a burst of short captions): several lines share a frame
    burst = (torch.randn(6, 24, generator=g), torch.randn(2, 20, generator=g))
    g = torch.Generator().manual_seed(4)
    burst3 = (torch.randn(6, 24, generator=g), torch.randn(3, 20, generator=g))
    return [_pair(8, 50, 1), _pair(2, 3, 2), _pair(3, 12, 3), burst, burst3]
