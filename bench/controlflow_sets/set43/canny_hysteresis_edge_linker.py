"""Canny-style edge detector with hysteresis edge linking (document / part
inspection front end).

Sobel gradients with (for large enough images) Gaussian pre-blur, a
4-direction non-maximum suppression helper, double thresholding, and
hysteresis: weak edge pixels are grown from strong ones by repeated 8-neighbour
dilation until nothing changes. Output: edge map and the number of growth
iterations.
Constructs: 1, 2, 3, 4, 7, 8
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def _gaussian_kernel(sigma=1.0, radius=2):
    x = torch.arange(-radius, radius + 1, dtype=torch.float32)
    k = torch.exp(-x ** 2 / (2 * sigma ** 2))
    k = k / k.sum()
    return (k[:, None] * k[None, :])[None, None]


def dilate8(mask):
    m = mask.float()[None, None]
    return F.max_pool2d(m, 3, stride=1, padding=1)[0, 0] > 0


def non_max_suppress(mag, gx, gy):
    """Keep pixels that are local maxima along the (quantised) gradient direction."""
    angle = torch.atan2(gy, gx) % torch.pi
    p = F.pad(mag[None, None], (1, 1, 1, 1))[0, 0]
    h, w = mag.shape
    left, right = p[1:h + 1, 0:w], p[1:h + 1, 2:w + 2]
    up, down = p[0:h, 1:w + 1], p[2:h + 2, 1:w + 1]
    ul, dr = p[0:h, 0:w], p[2:h + 2, 2:w + 2]
    ur, dl = p[0:h, 2:w + 2], p[2:h + 2, 0:w]
    horiz = (angle < torch.pi / 8) | (angle >= 7 * torch.pi / 8)
    diag1 = (angle >= torch.pi / 8) & (angle < 3 * torch.pi / 8)
    vert = (angle >= 3 * torch.pi / 8) & (angle < 5 * torch.pi / 8)
    n1 = torch.where(horiz, left, torch.where(diag1, ul, torch.where(vert, up, ur)))
    n2 = torch.where(horiz, right, torch.where(diag1, dr, torch.where(vert, down, dl)))
    return mag * ((mag >= n1) & (mag >= n2))


class CannyEdges(nn.Module):
    def __init__(self, low=0.3, high=1.04, blur_min_size=24):
        super().__init__()
        self.low = low
        self.high = high
        self.blur_min_size = blur_min_size
        self.register_buffer("gauss", _gaussian_kernel())
        sx = torch.tensor([[-1.0, 0.0, 1.0], [-2.0, 0.0, 2.0], [-1.0, 0.0, 1.0]]) / 4.0
        self.register_buffer("sobel", torch.stack([sx, sx.T])[:, None])

    def forward(self, img):
        x = img[None, None]
        if img.shape[0] >= self.blur_min_size and img.shape[1] >= self.blur_min_size:
            x = F.conv2d(F.pad(x, (2, 2, 2, 2), mode="replicate"), self.gauss)
        g = F.conv2d(F.pad(x, (1, 1, 1, 1), mode="replicate"), self.sobel)[0]
        gx, gy = g[0], g[1]
        mag = torch.sqrt(gx ** 2 + gy ** 2)
        thin = non_max_suppress(mag, gx, gy)

        strong = thin > self.high
        weak = thin > self.low
        if not strong.any():
            return torch.zeros_like(img), torch.zeros(())

        edges = strong
        iterations = torch.zeros(())
        changed = torch.tensor(True)
        while changed:
            grown = dilate8(edges) & weak
            changed = (grown != edges).any()
            edges = grown
            iterations = iterations + 1
        return edges.float(), iterations


def model():
    return CannyEdges().eval()


def _image(h, w, rects=(), seed=0):
    """Dark noisy background plus bright rectangles (r0, r1, c0, c1, value);
    the first row / column of each rectangle is half-bright (soft edge), so
    the gradient maximum falls on a single pixel."""
    g = torch.Generator().manual_seed(seed)
    img = 0.02 * torch.rand(h, w, generator=g)
    for (r0, r1, c0, c1, v) in rects:
        img[r0:r1, c0:c1] += v / 2
        img[r0 + 1:r1, c0 + 1 if c0 > 0 else 0:c1] += v / 2
    return img


def example_inputs():
    # horizontal step at row 20 whose contrast fades from 2.5 (strong) on the
    # left to 0.9 (weak) on the right: hysteresis must walk along the row
    w = 40
    contrast = torch.cat([torch.full((10,), 2.5), torch.linspace(2.5, 0.9, 16), torch.full((w - 26,), 0.9)])
    return (_image(32, w, rects=((20, 32, 0, w, contrast),)),)


def dynamic_shapes():
    return ({0: torch.export.Dim("H", min=8, max=128), 1: torch.export.Dim("W", min=8, max=128)},)


def verify_inputs():
    return [
        example_inputs(),                                     # blurred; weak edge linked over many iterations
        (_image(16, 20, rects=((8, 16, 0, 20, 2.5),)),),       # small image, no blur; strong only: loop stops after 1 pass
        (_image(30, 12, rects=((0, 30, 6, 12, 0.9),)),),      # H large, W small (`and` false): only weak edges -> early return
        (_image(10, 10),),                                    # flat: no edges -> early return
    ]
