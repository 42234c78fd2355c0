"""Burst photography: drop badly exposed frames, fuse the rest weighted by sharpness."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class BurstFuser(nn.Module):
    def __init__(self):
        super().__init__()
        lap = torch.tensor([[0.0, 1.0, 0.0], [1.0, -4.0, 1.0], [0.0, 1.0, 0.0]])
        self.register_buffer("laplacian", lap.view(1, 1, 3, 3))
        self.enhance = nn.Conv2d(3, 3, 3, padding=1)
        self.min_brightness = 0.25
        self.max_brightness = 0.75
        self.max_side = 48

    def sharpness(self, frame):
        gray = frame.mean(0, keepdim=True).unsqueeze(0)
        response = F.conv2d(gray, self.laplacian)
        return response.var()

    def forward(self, burst):
        # big frames are analysed at half resolution
        if burst.shape[2] > self.max_side:
            burst = F.avg_pool2d(burst, 2)
        kept = []
        scores = []
        for i in range(burst.shape[0]):
            frame = burst[i]
            brightness = frame.mean()
            if brightness < self.min_brightness or brightness > self.max_brightness:
                continue
            kept.append(frame)
            scores.append(self.sharpness(frame))
        if len(kept) == 0:
            # nothing usable: plain average of the burst
            fallback = self.enhance(burst.mean(0, keepdim=True))
            return fallback, torch.zeros(0)
        frames = torch.stack(kept)
        s = torch.stack(scores)
        weights = torch.softmax(s / (s.mean() + 1e-6), dim=0)
        fused = (weights.view(-1, 1, 1, 1) * frames).sum(0, keepdim=True)
        return self.enhance(fused), weights


def model():
    torch.manual_seed(0)
    m = BurstFuser()
    with torch.no_grad():
        m.enhance.weight.mul_(0.3)
    return m.eval()


def _burst(seed, brightness, side):
    g = torch.Generator().manual_seed(seed)
    h, w = side if isinstance(side, tuple) else (side, side)
    frames = []
    for k, b in enumerate(brightness):
        contrast = 0.05 + 0.04 * k
        tex = torch.rand(3, h, w, generator=g) - 0.5
        frames.append(b + contrast * tex)
    return torch.stack(frames)


def example_inputs():
    return (_burst(1, [0.5, 0.4, 0.9, 0.6], 32),)


def dynamic_shapes():
    n = torch.export.Dim("frames", min=2, max=12)
    h = torch.export.Dim("height", min=16, max=96)
    w = torch.export.Dim("width", min=16, max=96)
    return ({0: n, 2: h, 3: w},)


def verify_inputs():
    return [
        (_burst(2, [0.5, 0.1, 0.9, 0.6, 0.45], 32),),   # dark + bright skipped, some kept
        (_burst(3, [0.1, 0.95, 0.12], 64),),           # all rejected -> fallback, downsampled
        (_burst(4, [0.55, 0.35], 80),),                # all kept, downsampled
        (_burst(5, [0.9, 0.5, 0.15, 0.6, 0.4, 0.3, 0.62], (24, 40)),),
    ]
