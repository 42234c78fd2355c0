"""Camera ISP stage: lens vignetting (corner shading) correction.

A tiny CNN estimates how strong the lens fall-off is for the current frame
(it depends on aperture and zoom, which the sensor pipeline does not report),
the stage builds a radial gain map for the frame's own resolution and aspect
ratio, protects very dark frames from noise amplification and finally applies
the display gamma.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def radial_gain(h, w, strength):
    """Polynomial inverse of the cos^4 fall-off, radius normalised to the corner."""
    ys = torch.linspace(-1.0, 1.0, h)
    xs = torch.linspace(-1.0, 1.0, w)
    # keep pixels square: shrink the shorter axis by the aspect ratio
    if w >= h:
        ys = ys * (h / w)
    else:
        xs = xs * (w / h)
    r2 = ys[:, None] ** 2 + xs[None, :] ** 2
    r2 = r2 / r2.max()
    return 1.0 + strength * r2 + 0.5 * strength ** 2 * r2 ** 2


class VignetteCorrector(nn.Module):
    def __init__(self, apply_gamma=True, max_gain=2.0, stats_size=32):
        super().__init__()
        self.apply_gamma = apply_gamma
        self.max_gain = max_gain
        self.stats_size = stats_size
        self.estimator = nn.Sequential(
            nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 1))

    def forward(self, raw):
        # raw: [1, 3, H, W] linear RGB in [0, 1]
        _, _, h, w = raw.shape
        if h * w > 4 * self.stats_size * self.stats_size:
            # big frames: estimate on a thumbnail
            thumb = F.interpolate(raw, size=(self.stats_size, self.stats_size), mode="bilinear",
                                  align_corners=False)
        else:
            thumb = raw
        strength = 0.2 + 0.4 * torch.sigmoid(self.estimator(thumb)).reshape(())
        gain = radial_gain(h, w, strength).clamp(max=self.max_gain)
        out = raw * gain
        if raw.mean() < 0.05:
            # very dark frame: full corner gain would mostly amplify read noise
            out = raw + 0.5 * (out - raw)
        if self.apply_gamma:  # static
            out = out.clamp(0.0, 1.0) ** (1.0 / 2.2)
        return out


def model():
    torch.manual_seed(3)
    return VignetteCorrector().eval()


def _make_frame(h, w, seed, level=1.0):
    g = torch.Generator().manual_seed(seed)
    return (level * (0.2 + 0.6 * torch.rand(1, 3, h, w, generator=g)),)


def example_inputs():
    return _make_frame(48, 64, 0)


def dynamic_shapes():
    return ({2: torch.export.Dim("h", min=8, max=512), 3: torch.export.Dim("w", min=8, max=512)},)


def verify_inputs():
    return [
        # landscape, 3072 px: no thumbnail, normal brightness
        example_inputs(),
        # small landscape 8x10
        _make_frame(8, 10, 1),
        # small portrait 20x12 (h > w branch in radial_gain)
        _make_frame(20, 12, 2),
        # big portrait 80x72: thumbnail branch, h > w
        _make_frame(80, 72, 3),
        # big landscape 64x96, dark frame (mean ~0.01): noise-protection branch
        _make_frame(64, 96, 4, level=0.025),
        # small square dark frame
        _make_frame(16, 16, 5, level=0.03),
    ]
