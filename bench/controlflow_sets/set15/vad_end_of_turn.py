"""Voice activity + end-of-turn detector for a voice assistant (streaming frames, on device).

Input: acoustic features (B, T, 40), T dynamic. A GRU cell runs frame by frame; after speech
has started, a run of `hangover` non-speech frames ends the user's turn and the loop stops.
Returns per-frame speech probabilities (up to the stop point, padded with zeros), the
end-of-turn frame (-1 if the turn is still open) and the number of speech frames.
"""

import torch
from torch import nn


class EndOfTurn(nn.Module):
    def __init__(self, feat: int = 40, hidden: int = 32, hangover: int = 6):
        super().__init__()
        self.hangover = hangover
        self.cell = nn.GRUCell(feat, hidden)
        self.out = nn.Linear(hidden, 1)
        self.energy_w = 3.0

    def forward(self, feats: torch.Tensor):
        b, t_len = feats.shape[0], feats.shape[1]
        h = torch.zeros(b, self.cell.hidden_size)
        probs = []
        silence = torch.tensor(0)
        speech_frames = torch.tensor(0)
        started = torch.tensor(False)
        end_at = torch.tensor(-1)
        for t in range(t_len):
            x = feats[:, t]
            h = self.cell(x, h)
            energy = x.mean()
            p = torch.sigmoid(0.1 * self.out(h).mean() + self.energy_w * energy)
            probs.append(p)
            if p > 0.5:
                silence = torch.tensor(0)
                speech_frames = speech_frames + 1
                started = torch.tensor(True)
            elif started:
                silence = silence + 1
            if started and silence >= self.hangover:
                end_at = torch.tensor(t)
                break
        p_all = torch.stack(probs)
        p_all = torch.cat([p_all, torch.zeros(t_len - p_all.shape[0])])
        return p_all, end_at, speech_frames


def model() -> nn.Module:
    torch.manual_seed(0)
    return EndOfTurn().eval()


def _utt(t, segments, seed):
    """segments: list of (start, end) speech frames; elsewhere background noise."""
    g = torch.Generator().manual_seed(seed)
    x = -1.0 + 0.3 * torch.randn(1, t, 40, generator=g)
    for s, e in segments:
        x[:, s:e] = 1.0 + 0.3 * torch.randn(1, e - s, 40, generator=g)
    return x


def example_inputs() -> tuple:
    return (_utt(40, [(5, 20)], 1),)


def dynamic_shapes():
    return ({1: torch.export.Dim("frames", min=4, max=400)},)


def verify_inputs() -> list:
    return [
        (_utt(20, [], 2),),                    # never speaks
        (_utt(30, [(3, 28)], 3),),             # still talking at the end
        (_utt(50, [(2, 8), (11, 20)], 4),),    # short pause does not end the turn
    ]
