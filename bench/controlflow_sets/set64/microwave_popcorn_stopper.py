"""Microwave "popcorn" sensor program.

The microphone stream is cut into 64-sample frames.  A pop is a frame whose
high-passed energy jumps well above the running noise floor.  Once popping is
well under way, a long enough silence since the last pop means the bag is
done and the magnetron is switched off at that frame.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PopcornStopper(nn.Module):
    def __init__(self, frame_ms=8.0, min_pops=5, stop_gap_s=0.12, pop_ratio=6.0):
        super().__init__()
        self.min_pops = min_pops
        self.gap_frames = int(stop_gap_s * 1000 / frame_ms)
        self.pop_ratio = pop_ratio
        # first-difference high-pass to drop the magnetron hum
        self.register_buffer("hp", torch.tensor([[[1.0, -1.0]]]))

    def forward(self, frames):
        n_frames = frames.shape[0]
        hp = F.conv1d(frames.unsqueeze(1), self.hp).squeeze(1)
        energy = hp.pow(2).mean(dim=1)
        floor = energy.median() + 1e-6

        pops = 0
        last_pop = -1
        stop_at = n_frames
        for f in range(n_frames):
            if energy[f] > self.pop_ratio * floor:
                pops += 1
                last_pop = f
                continue
            if pops >= self.min_pops and f - last_pop > self.gap_frames:
                stop_at = f
                break
        return torch.tensor([stop_at, pops]), energy


def model():
    torch.manual_seed(64)
    return PopcornStopper().eval()


def _audio(n_frames, pop_frames, seed):
    g = torch.Generator().manual_seed(seed)
    x = 0.01 * torch.randn(n_frames, 64, generator=g)
    for f in pop_frames:
        x[f] += torch.tensor([0.0, 0.8, -0.9, 0.7, -0.5, 0.3]).repeat(11)[:64]
    return x


def example_inputs():
    # popping between frames 10 and 40, then silence -> stop 15 frames after the last pop
    return (_audio(80, [10, 13, 15, 18, 22, 25, 29, 33, 38], seed=0),)


def dynamic_shapes():
    n = torch.export.Dim("frames", min=2, max=512)
    return ({0: n},)


def verify_inputs():
    return [
        example_inputs(),                                   # pops (continue taken), then silence long enough -> break
        (_audio(60, [], seed=1),),                          # no pops at all: never continue, never break, loop exhausts
        (_audio(40, [2, 5, 8, 11, 14, 17, 20, 23, 26, 29, 32, 35, 38], seed=2),),  # still popping at the end: no break
        (_audio(120, [5, 30, 60, 62, 64, 66, 68, 70], seed=3),),   # long gaps before min_pops (and-condition false), later break
        (_audio(2, [0], seed=4),),                          # two frames, a single pop
    ]
