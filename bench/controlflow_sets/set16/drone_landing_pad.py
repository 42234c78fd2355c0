"""Landing-pad finder for a drone's downward camera: coarse-to-fine search. The
crop shrinks around the bright-marker centroid while the marker fill ratio is low
(far away) and the crop is still large; a small CNN then regresses the pad offset.
No marker at all returns confidence 0.
"""
import torch
from torch import nn
import torch.nn.functional as F

IN = 32
MARK = 0.8


class OffsetNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.f = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                               nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4),
                               nn.Flatten(), nn.Linear(128, 2))

    def forward(self, x):
        return torch.tanh(self.f(x)) * 0.1


def centroid(mask):
    h, w = mask.shape
    ys = torch.arange(h, dtype=torch.float32).unsqueeze(1)
    xs = torch.arange(w, dtype=torch.float32).unsqueeze(0)
    n = mask.sum().clamp_min(1.0)
    return (mask * ys).sum() / n, (mask * xs).sum() / n


class PadFinder(nn.Module):
    def __init__(self, fill_target=0.08):
        super().__init__()
        self.net = OffsetNet()
        self.fill_target = fill_target

    def forward(self, img):  # (1, 1, H, W) grayscale in [0, 1]
        gray = img[0, 0]
        mask = (gray > MARK).float()
        if mask.sum() < 3:
            return torch.zeros(2), torch.zeros(1)
        cy, cx = centroid(mask)
        size = torch.tensor(float(min(gray.shape[0], gray.shape[1])))
        # zoom while the marker is small in the view and the crop is big
        while mask.mean() < self.fill_target and size > 20:
            size = size * 0.5
            half = size * 0.5
            h, w = gray.shape[0], gray.shape[1]
            y0 = (cy - half).clamp(0, h - size)
            x0 = (cx - half).clamp(0, w - size)
            theta = torch.stack([torch.stack([size / w, torch.zeros(()), (2 * x0 + size) / w - 1]),
                                 torch.stack([torch.zeros(()), size / h, (2 * y0 + size) / h - 1])]).unsqueeze(0)
            grid = F.affine_grid(theta, [1, 1, IN, IN], align_corners=False)
            crop = F.grid_sample(img, grid, align_corners=False)[0, 0]
            mask = (crop > MARK).float()
        patch = F.interpolate(img, size=(IN, IN), mode="bilinear", align_corners=False)
        off = self.net(patch)[0]
        conf = (mask.mean() / self.fill_target).clamp(max=1.0).reshape(1)
        return torch.stack([cy, cx]) + off * size, conf


def model():
    torch.manual_seed(0)
    return PadFinder().eval()


def _img(h, w, cy, cx, r, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.rand(1, 1, h, w, generator=g) * 0.5
    if r > 0:
        x[..., cy - r:cy + r, cx - r:cx + r] = 0.95
    return x


def example_inputs():
    return (_img(96, 128, 40, 60, 4, 0),)


def dynamic_shapes():
    return ({2: torch.export.Dim("h", min=16, max=512), 3: torch.export.Dim("w", min=16, max=512)},)


def verify_inputs():
    return [
        (_img(64, 64, 30, 30, 0, 1),),     # no marker
        (_img(128, 160, 70, 90, 3, 2),),   # far away: several zoom steps
        (_img(48, 48, 24, 24, 10, 3),),    # close: no zoom
        (_img(48, 44, 20, 20, 1, 4),),     # tiny marker: zoom stops at the size floor
    ]
