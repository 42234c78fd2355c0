"""Video editing assistant: shot-boundary detection and per-shot summaries.

Frames are compared by colour histograms; a large change is a cut unless it
comes too soon after the previous cut (camera flash, glitch frame), very long
shots are split so the summaries stay local, and fade-to-black frames never
start a new shot.  Each shot is summarised by the mean CNN embedding of its
frames plus how much the content moves within the shot.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def color_histogram(frames, bins=8):
    """Per-channel histograms, normalised: [N, 3 * bins]."""
    q = (frames.clamp(0.0, 0.999) * bins).long()
    hist = F.one_hot(q, bins).float().mean(dim=(2, 3))
    return hist.flatten(1)


def summarize_shot(feats):
    """Mean appearance of the shot plus its motion energy."""
    if feats.shape[0] == 1:
        motion = torch.zeros(1)
    else:
        motion = (feats[1:] - feats[:-1]).norm(dim=-1).mean().reshape(1)
    return torch.cat([feats.mean(0), motion])


class ShotSegmenter(nn.Module):
    def __init__(self, cut_threshold=0.4, min_shot=3, max_shot=48, skip_black=True):
        super().__init__()
        self.cut_threshold = cut_threshold
        self.min_shot = min_shot
        self.max_shot = max_shot
        self.skip_black = skip_black
        self.encoder = nn.Sequential(
            nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten())

    def forward(self, frames):
        # frames: [N, 3, H, W] in [0, 1]
        feats = self.encoder(frames)
        hist = color_histogram(frames)
        change = (hist[1:] - hist[:-1]).abs().sum(-1) / 6.0
        brightness = frames.mean(dim=(1, 2, 3))

        shots = []
        start = 0
        for i in range(1, frames.shape[0]):
            if self.skip_black and brightness[i] < 0.03:
                # fade-to-black frames stay with the shot they end
                continue
            cut = change[i - 1] > self.cut_threshold
            if cut and i - start < self.min_shot:
                continue   # flash or glitch frame, not a real cut
            if not cut and i - start < self.max_shot:
                continue
            shots.append(summarize_shot(feats[start:i]))
            start = i
        shots.append(summarize_shot(feats[start:]))
        return torch.stack(shots), torch.tensor(len(shots))


def model():
    torch.manual_seed(61)
    return ShotSegmenter().eval()


# colour of each scene, at histogram-bin centres so in-scene noise never changes a bin
_SCENES = {
    "beach": (0.8125, 0.6875, 0.4375),
    "forest": (0.1875, 0.5625, 0.1875),
    "studio": (0.5625, 0.5625, 0.6875),
    "flash": (0.9375, 0.9375, 0.9375),
    "black": (0.0, 0.0, 0.0),
}


def _make_clip(script, seed, size=24):
    g = torch.Generator().manual_seed(seed)
    frames = []
    for scene, count in script:
        base = torch.tensor(_SCENES[scene]).view(3, 1, 1)
        for _ in range(count):
            noise = 0.0 if scene == "black" else 0.05 * (torch.rand(3, size, size, generator=g) - 0.5)
            frames.append(base.expand(3, size, size) + noise)
    return (torch.stack(frames),)


def example_inputs():
    # beach, cut to forest, a camera flash in the forest shot (the flash opens a shot, the
    # jump back one frame later is ignored as too soon), cut to studio (1-frame final shot)
    return _make_clip([("beach", 8), ("forest", 3), ("flash", 1), ("forest", 5), ("studio", 1)], 0)


def dynamic_shapes():
    return ({0: torch.export.Dim("frames", min=2, max=240)},)


def verify_inputs():
    return [
        # real cuts, a cut ignored as too soon after the previous one, a 1-frame final shot
        example_inputs(),
        # 60-frame static shot: split at max_shot (48)
        _make_clip([("studio", 60)], 1),
        # fade to black between scenes: black frames are skipped
        _make_clip([("beach", 6), ("black", 3), ("forest", 5)], 2),
        # two frames, instant cut too early to count: one shot
        _make_clip([("beach", 1), ("forest", 1)], 3),
    ]
