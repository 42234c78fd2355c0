"""All-sky camera meteor detector (citizen-science fireball network).

Frames washed out by the moon or lit clouds are skipped; large frames are
binned 2x2; a denoiser adapts its number of smoothing passes to the measured
sky noise; oriented line filters respond to streaks; and detections are
peeled off one at a time (strongest first, suppressing each streak's
neighbourhood) while they stand clearly above the noise.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class NoiseAdaptiveSmoother(nn.Module):
    def __init__(self, noisy_sigma=0.05):
        super().__init__()
        self.noisy_sigma = noisy_sigma
        self.register_buffer("kernel", torch.full((1, 1, 3, 3), 1.0 / 9.0))

    def forward(self, img):
        # robust sky-noise estimate from horizontal pixel differences (MAD)
        d = img[..., :, 1:] - img[..., :, :-1]
        sigma = 1.4826 * (d - d.median()).abs().median() / 1.4142
        passes = 3 if sigma > self.noisy_sigma else 1
        for _ in range(passes):
            img = F.conv2d(img, self.kernel, padding=1)
        return img, sigma


class MeteorDetector(nn.Module):
    def __init__(self, threshold=0.15, max_detections=4, max_side=96, saturated_fraction=0.25):
        super().__init__()
        self.threshold = threshold
        self.max_detections = max_detections
        self.max_side = max_side
        self.saturated_fraction = saturated_fraction
        self.smoother = NoiseAdaptiveSmoother()
        # zero-mean 5x5 line detectors at 0, 45, 90 and 135 degrees
        self.line_filters = nn.ModuleList()
        idx = torch.arange(5)
        for rows, cols in ((idx * 0 + 2, idx), (4 - idx, idx), (idx, idx * 0 + 2), (idx, idx)):
            k = torch.zeros(5, 5)
            k[rows, cols] = 1.0
            conv = nn.Conv2d(1, 1, 5, padding=2, bias=False)
            conv.weight.data.copy_((k - k.mean()).view(1, 1, 5, 5))
            self.line_filters.append(conv)

    def forward(self, frame):
        # frame: [1, 1, H, W] in [0, 1]
        if (frame > 0.9).float().mean() > self.saturated_fraction:
            # moon / lit clouds: nothing usable in this frame
            return frame.new_zeros(0, 4), torch.tensor(0)
        h, w = frame.shape[-2:]
        if max(h, w) > self.max_side:
            frame = F.avg_pool2d(frame, 2)
            scale = 2.0
        else:
            scale = 1.0
        clean, sigma = self.smoother(frame)
        background = F.avg_pool2d(clean, 7, stride=1, padding=3, count_include_pad=False)
        excess = (clean - background).clamp(min=0.0)
        responses = []
        for filt in self.line_filters:  # static
            responses.append(filt(excess))
        best, orient = torch.cat(responses, dim=1)[0].max(0)

        dets = []
        while best.max() > self.threshold + 2.0 * sigma and len(dets) < self.max_detections:
            idx = int(torch.argmax(best))
            y, x = idx // best.shape[1], idx % best.shape[1]
            dets.append(torch.stack([torch.tensor(y * scale), torch.tensor(x * scale),
                                     orient[y, x].float() * 45.0, best[y, x]]))
            # suppress the whole streak before looking for the next one
            best[max(y - 10, 0): y + 11, max(x - 10, 0): x + 11] = 0.0
        out = torch.stack(dets) if dets else frame.new_zeros(0, 4)
        return out, torch.tensor(len(dets))


def model():
    torch.manual_seed(79)
    return MeteorDetector().eval()


def _make_sky(h, w, streaks, noise, seed, moon=False):
    """streaks: (y, x, dy, dx, length, peak, width) lines, brightest in the middle."""
    g = torch.Generator().manual_seed(seed)
    sky = 0.1 + noise * torch.randn(h, w, generator=g)
    for y0, x0, dy, dx, n, peak, width in streaks:
        for t in range(n):
            bright = peak * (1.0 - abs(t - n // 2) / (n // 2 + 1))
            for o in range(width):
                oy, ox = (o, 0) if dy == 0 else (0, o)
                sky[y0 + dy * t + oy, x0 + dx * t + ox] += bright
    if moon:
        sky[: h // 2 + 4, :] = 0.97
    return (sky.clamp(0.0, 1.0).view(1, 1, h, w),)


def example_inputs():
    # two streaks on a quiet sky
    return _make_sky(48, 64, [(10, 5, 0, 1, 13, 0.8, 1), (25, 40, 1, 1, 11, 0.75, 1)], 0.01, 0)


def dynamic_shapes():
    return ({2: torch.export.Dim("h", min=16, max=512), 3: torch.export.Dim("w", min=16, max=512)},)


def verify_inputs():
    return [
        # two detections, quiet sky (1 smoothing pass), small frame
        example_inputs(),
        # empty sky: no detections (detection loop runs zero times)
        _make_sky(40, 40, [], 0.01, 1),
        # one vertical streak on a big frame (binned 2x2)
        _make_sky(120, 100, [(20, 50, 1, 0, 26, 0.85, 2)], 0.01, 2),
        # six streaks, noisy sky (3 smoothing passes): capped at 4 detections
        _make_sky(90, 96, [(5, 5, 0, 1, 13, 0.85, 3), (30, 5, 1, 1, 11, 0.8, 3), (66, 8, 0, 1, 13, 0.85, 3),
                           (5, 60, 1, 0, 13, 0.8, 3), (40, 70, 1, -1, 11, 0.85, 3), (70, 60, 0, 1, 13, 0.8, 3)],
                  0.08, 3),
        # moon in the frame: early return
        _make_sky(32, 48, [(20, 5, 0, 1, 13, 0.8, 1)], 0.01, 4, moon=True),
    ]
