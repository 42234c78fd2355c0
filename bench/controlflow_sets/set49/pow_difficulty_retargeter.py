"""Proof-of-work difficulty retargeting over a chain of block timestamps:
periodic retarget with 4x clamp plus an emergency adjustment on long gaps."""
import torch
import torch.nn as nn
from torch.export import Dim


class DifficultyRetargeter(nn.Module):
    def __init__(self, interval=10, block_time=60.0):
        super().__init__()
        self.interval = interval
        self.block_time = block_time
        self.expected = (interval - 1) * block_time
        self.register_buffer("initial_difficulty", 1000.0 + 100.0 * torch.rand(1))

    def forward(self, timestamps):
        # timestamps: [B] block times in seconds
        B = timestamps.shape[0]
        if B <= self.interval:
            # chain too short for a retarget window
            return self.initial_difficulty.expand(B).clone()
        difficulty = self.initial_difficulty.clone()
        out = []
        for i in range(B):
            if i > 0 and i % self.interval == 0:
                span = timestamps[i - 1] - timestamps[i - self.interval]
                ratio = self.expected / span.clamp(min=1.0)
                if ratio > 4.0 or ratio < 0.25:
                    ratio = ratio.clamp(0.25, 4.0)
                difficulty = difficulty * ratio
            # emergency difficulty adjustment after a very long gap
            if i > 0 and timestamps[i] - timestamps[i - 1] > 12 * self.block_time:
                difficulty = difficulty * 0.8
            out.append(difficulty)
        return torch.cat(out)


def model():
    torch.manual_seed(4905)
    return DifficultyRetargeter().eval()


def _chain(gaps):
    return (torch.cumsum(torch.as_tensor(gaps, dtype=torch.float32), 0),)


def example_inputs():
    # near-target gaps: retarget within clamp, no emergency
    g = torch.Generator().manual_seed(41)
    return _chain(45.0 + 30.0 * torch.rand(40, generator=g))


def dynamic_shapes():
    return ({0: Dim("blocks", min=2, max=512)},)


def verify_inputs():
    g = torch.Generator().manual_seed(42)
    slow = 45.0 + 30.0 * torch.rand(60, generator=g)
    slow[25] = 1500.0                                 # one very long gap
    return [
        example_inputs(),
        _chain([55.0, 70.0, 60.0, 58.0, 62.0]),      # shorter than one window -> early return
        _chain([10.0] * 60),                          # blocks 6x too fast -> clamped at 4x
        _chain([800.0] * 30),                         # 13x too slow -> clamp + emergency every block
        _chain(slow),                                 # normal with one emergency gap
        _chain(45.0 + 30.0 * torch.rand(512, generator=g)),  # long chain
    ]
