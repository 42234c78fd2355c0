"""Conveyor belt item counting from a through-beam light curtain: beam-blocked intervals
are found with nonzero(), each interval is resampled and classified (small / medium /
large parcel); glitches shorter than the debounce time are skipped. Returns per-class
counts and the list of item lengths (data-dependent size)."""

import torch
from torch import nn
import torch.nn.functional as F

MIN_LEN = 3


class ItemCounter(nn.Module):
    def __init__(self):
        super().__init__()
        self.cls = nn.Sequential(nn.Linear(17, 32), nn.ReLU(), nn.Linear(32, 3))

    def forward(self, sig: torch.Tensor):
        # sig: (1, T) beam attenuation in [0, 1]; > 0.5 means blocked
        blocked = F.pad(sig, (1, 1))[0] > 0.5
        d = blocked[1:].long() - blocked[:-1].long()
        rises = torch.nonzero(d == 1).squeeze(1)
        falls = torch.nonzero(d == -1).squeeze(1)
        counts = torch.zeros(3)
        lengths = []
        for i in range(rises.shape[0]):
            start, stop = rises[i], falls[i]
            length = stop - start
            if length < MIN_LEN:
                continue  # debounce: dust / flicker
            seg = sig[:, start:stop]
            prof = F.interpolate(seg.unsqueeze(0), size=16, mode="linear", align_corners=True)[0, 0]
            feat = torch.cat([prof, length.float().reshape(1) / 50.0])
            logits = self.cls(feat) + torch.tensor([1.0, 0.0, -1.0]) * (20.0 - length.float()) / 5.0
            counts = counts + F.one_hot(torch.argmax(logits), 3).float()
            lengths.append(length)
        if len(lengths) == 0:
            return counts, torch.zeros(0, dtype=torch.long)
        return counts, torch.stack(lengths)


def model() -> nn.Module:
    torch.manual_seed(0)
    return ItemCounter().eval()


def _belt(T, items, seed):
    g = torch.Generator().manual_seed(seed)
    sig = 0.1 * torch.rand(1, T, generator=g)
    for start, length in items:
        sig[0, start:start + length] = 0.8 + 0.15 * torch.rand(length, generator=g)
    return (sig,)


def example_inputs() -> tuple:
    return _belt(64, [(5, 8), (20, 2), (30, 25)], 0)


def dynamic_shapes():
    return ({1: torch.export.Dim("t", min=16, max=512)},)


def verify_inputs() -> list:
    return [
        _belt(16, [], 1),                                     # empty belt
        _belt(200, [(0, 12), (40, 1), (60, 35), (150, 16), (190, 10)], 2),  # item at both ends
        _belt(40, [(10, 2)], 3),                              # only a glitch
        _belt(512, [(s, 6 + (s % 30)) for s in range(5, 480, 48)], 4),
    ]
