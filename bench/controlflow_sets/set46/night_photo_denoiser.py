"""T: phone camera night-mode denoiser that picks its strength from an estimated noise level.

img (1, 3, H, W) in [0, 1]. Returns denoised image and the noise estimate (1,).
Constructs: 1, 2, 7, 8, 9
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class NoiseEstimator(nn.Module):
    def __init__(self):
        super().__init__()
        lap = torch.tensor([[0.0, 1.0, 0.0], [1.0, -4.0, 1.0], [0.0, 1.0, 0.0]])
        self.register_buffer("lap", lap.view(1, 1, 3, 3))

    def forward(self, img):
        gray = img.mean(1, keepdim=True)
        resp = F.conv2d(gray, self.lap)
        return resp.abs().mean().reshape(1) * 0.5


class NightDenoiser(nn.Module):
    def __init__(self, n_strong=3):
        super().__init__()
        self.noise = NoiseEstimator()
        self.light = nn.Conv2d(3, 3, 3, padding=1)
        self.strong = nn.ModuleList([nn.Conv2d(3, 3, 3, padding=1) for _ in range(n_strong)])
        with torch.no_grad():
            for conv in [self.light, *self.strong]:
                conv.weight.mul_(0.1)
                conv.weight[:, :, 1, 1] += torch.eye(3) * 0.5
                conv.weight.add_(0.05)

    def _strong_pass(self, x):
        # work at half resolution on big frames to save time
        if x.shape[-1] > 96:
            small = F.avg_pool2d(x, 2)
            for conv in self.strong:
                small = torch.sigmoid(conv(small) * 4.0 - 2.0)
            return F.interpolate(small, size=x.shape[-2:], mode="bilinear", align_corners=False)
        for conv in self.strong:
            x = torch.sigmoid(conv(x) * 4.0 - 2.0)
        return x

    def forward(self, img):
        sigma = self.noise(img)
        if sigma < 0.02:
            return img, sigma
        if sigma > 0.08:
            out = self._strong_pass(img)
        else:
            out = 0.5 * img + 0.5 * self.light(img).clamp(0, 1)
        return out, sigma


def _photo(H, W, noise, seed):
    g = torch.Generator().manual_seed(seed)
    yy = torch.linspace(0, 1, H).view(H, 1)
    xx = torch.linspace(0, 1, W).view(1, W)
    base = torch.stack([0.3 + 0.4 * xx * yy, 0.2 + 0.3 * yy + 0 * xx, 0.5 - 0.2 * xx + 0 * yy])
    img = base + noise * torch.randn(3, H, W, generator=g)
    return (img.clamp(0, 1).unsqueeze(0),)


def model():
    torch.manual_seed(4606)
    return NightDenoiser().eval()


def example_inputs():
    return _photo(48, 64, 0.1, 1)


def dynamic_shapes():
    return ({2: torch.export.Dim("H", min=8, max=256), 3: torch.export.Dim("W", min=8, max=256)},)


def verify_inputs():
    return [
        example_inputs(),            # noisy, W<=96 -> strong full-res pass
        _photo(8, 8, 0.0, 2),        # clean (min size) -> early return
        _photo(40, 200, 0.03, 3),    # mild noise -> light filter
        _photo(256, 256, 0.2, 4),    # very noisy, W>96 -> half-res strong pass (max size)
    ]
