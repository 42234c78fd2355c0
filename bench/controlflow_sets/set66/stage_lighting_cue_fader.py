"""Theatre lighting console: render the frames of a cue crossfade.

Given the current channel levels, the target cue and the fade time (seconds, from the cue
sheet), the console emits one frame of dimmer levels per DMX refresh tick. A zero-time
cue (shorter than half a tick) snaps, a cue that changes nothing emits a single frame,
otherwise levels move along the configured fade curve. Channels going up and down can use different profiles
(split fade), and a learned per-console dimmer law maps levels to output.

Kind: T.  Constructs: 1, 2, 5, 9.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class CueFader(nn.Module):
    def __init__(self, fps=10, curve="s", split_fade=True):
        super().__init__()
        self.fps = fps
        self.curve = curve
        self.split_fade = split_fade
        self.gamma = nn.Parameter(1.0 + 0.2 * torch.rand(()))

    def output_law(self, level):
        return 100.0 * (level.clamp(0.0, 100.0) / 100.0) ** self.gamma

    def forward(self, current, target, fade_time):
        # current/target: (C,) channel levels 0..100, fade_time: () seconds
        if fade_time < 0.5 / self.fps:
            # shorter than half a refresh tick: snap
            return self.output_law(target).unsqueeze(0)
        if (target - current).abs().max() < 0.5:
            return self.output_law(current).unsqueeze(0)
        n_frames = max(1, round(fade_time.item() * self.fps))
        going_up = target > current
        frames = []
        for k in range(1, n_frames + 1):
            a = k / n_frames
            if self.curve == "s":
                a = a * a * (3.0 - 2.0 * a)
            level = current + (target - current) * a
            if self.split_fade:
                # downward channels finish in the first 70 % of the fade (dipless crossfade)
                a_down = min(1.0, a / 0.7)
                level = torch.where(going_up, level, current + (target - current) * a_down)
            frames.append(self.output_law(level))
        return torch.stack(frames)


def model():
    torch.manual_seed(5)
    return CueFader().eval()


def example_inputs():
    current = torch.tensor([0.0, 50.0, 80.0, 100.0, 30.0, 0.0])
    target = torch.tensor([75.0, 50.0, 20.0, 100.0, 90.0, 10.0])
    return (current, target, torch.tensor(1.5))


def dynamic_shapes():
    ch = Dim("channels", min=2, max=512)
    return ({0: ch}, {0: ch}, None)


def verify_inputs():
    cur, tgt, _ = example_inputs()
    return [
        # 1.5 s fade: 15 frames through the loop
        example_inputs(),
        # go cue with zero time: snap (first early return)
        (cur, tgt, torch.tensor(0.0)),
        # target equals current (within half a percent): single frame (second early return)
        (torch.full((4,), 40.0), torch.tensor([40.0, 40.2, 39.9, 40.0]), torch.tensor(3.0)),
        # very short fade on 2 channels: loop runs exactly once
        (torch.tensor([0.0, 100.0]), torch.tensor([100.0, 0.0]), torch.tensor(0.12)),
        # long fade on 24 channels: many frames
        (torch.linspace(0.0, 92.0, 24), torch.linspace(92.0, 0.0, 24), torch.tensor(4.0)),
    ]
