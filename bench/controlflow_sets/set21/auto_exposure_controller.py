"""Camera auto-exposure: iterate digital gain until mean luma is in range, optional denoise at high gain, gamma."""
import torch
import torch.nn.functional as F
from torch import nn
from torch.export import Dim


class AutoExposure(nn.Module):
    def __init__(self, lo=0.35, hi=0.55, target=0.45, max_iter=6, hdr_mode=False):
        super().__init__()
        self.lo, self.hi, self.target, self.max_iter = lo, hi, target, max_iter
        self.hdr_mode = hdr_mode
        self.register_buffer("luma_w", torch.tensor([0.299, 0.587, 0.114]).view(3, 1, 1))
        self.denoise = nn.Conv2d(3, 3, 3, padding=1, groups=3, bias=False)
        with torch.no_grad():
            self.denoise.weight.fill_(1.0 / 9.0)

    def mean_luma(self, img, gain):
        return ((img * gain).clamp(0.0, 1.0) * self.luma_w).sum(0).mean()

    def forward(self, raw):
        gain = torch.ones(1)
        m = self.mean_luma(raw, gain)
        it = 0
        while (m < self.lo or m > self.hi) and it < self.max_iter:
            gain = gain * (self.target / m).clamp(0.5, 2.0)
            m = self.mean_luma(raw, gain)
            it += 1
        img = (raw * gain).clamp(0.0, 1.0)
        img = self.denoise(img.unsqueeze(0)).squeeze(0) if gain.item() > 3.0 else img
        if self.hdr_mode:  # static
            img = img / (1.0 + img)
        out = (img + 1e-4) ** (1.0 / 2.2)
        return out, gain


def model():
    torch.manual_seed(0)
    return AutoExposure().eval()


def _img(h, w, level, seed):
    g = torch.Generator().manual_seed(seed)
    base = torch.rand(3, h, w, generator=g)
    yy = torch.linspace(0.2, 1.0, h).view(1, h, 1)
    return (base * 0.6 + 0.4 * yy) * level


def example_inputs():
    return (_img(48, 64, 0.25, 1),)


def verify_inputs():
    return [
        (_img(32, 40, 0.7, 2),),     # already well exposed -> no iteration
        (_img(64, 48, 0.05, 3),),    # very dark -> many iterations, high gain -> denoise
        (_img(24, 24, 1.6, 4),),     # over-exposed -> gain down
    ]


def dynamic_shapes():
    return ({1: Dim("height", min=8, max=256), 2: Dim("width", min=8, max=256)},)
