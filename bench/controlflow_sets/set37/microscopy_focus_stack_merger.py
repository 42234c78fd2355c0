"""Extended-depth-of-field fusion for a brightfield microscope z-stack.

Each z-slice gets a per-pixel sharpness map (smoothed squared Laplacian).  Slices
blown out by the lamp are skipped.  The in-focus image is a softmax-weighted
blend over the remaining slices; large frames are then contrast-normalised tile
by tile (flat background tiles are left alone) and passed through a small
residual refiner.  Also returns a depth-index map (height map of the specimen).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


class Refiner(nn.Module):
    def __init__(self, width=8, depth=2):
        super().__init__()
        self.inp = nn.Conv2d(1, width, 3, padding=1)
        self.body = nn.ModuleList([nn.Conv2d(width, width, 3, padding=1) for _ in range(depth)])
        self.out = nn.Conv2d(width, 1, 3, padding=1)

    def forward(self, x):
        h = F.relu(self.inp(x))
        for conv in self.body:
            h = h + F.relu(conv(h))
        return x + 0.1 * self.out(h)


class FocusStacker(nn.Module):
    def __init__(self, tile=32, temperature=50.0):
        super().__init__()
        self.tile = tile
        self.temperature = temperature
        self.register_buffer("lap", torch.tensor([[0.0, 1.0, 0.0], [1.0, -4.0, 1.0], [0.0, 1.0, 0.0]]).view(1, 1, 3, 3))
        self.refiner = Refiner()

    def laplacian(self, img):
        return F.conv2d(F.pad(img[None, None], (1, 1, 1, 1), mode="replicate"), self.lap)

    def sharpness(self, img):
        energy = self.laplacian(img) ** 2
        return F.avg_pool2d(energy, 5, stride=1, padding=2, count_include_pad=False)[0, 0]

    def normalise_tiles(self, img):
        h, w = img.shape
        rows = []
        for y in range(0, h, self.tile):
            cols = []
            for x in range(0, w, self.tile):
                t = img[y:y + self.tile, x:x + self.tile]
                sd = t.std()
                if sd < 1e-3:
                    cols.append(t)            # empty background: nothing to stretch
                    continue
                cols.append((t - t.mean()) / sd * 0.2 + 0.5)
            rows.append(torch.cat(cols, dim=1))
        return torch.cat(rows, dim=0)

    def forward(self, stack):
        sharp, kept, z_idx = [], [], []
        for z in range(stack.shape[0]):
            sl = stack[z]
            if (sl > 0.98).float().mean() > 0.2:
                continue                      # lamp flash / saturated slice
            sharp.append(self.sharpness(sl))
            kept.append(sl)
            z_idx.append(z)
        if not kept:
            return stack.mean(0), torch.zeros_like(stack[0])
        weights = torch.softmax(torch.stack(sharp) * self.temperature, dim=0)
        fused = (weights * torch.stack(kept)).sum(0)
        depth = (weights * torch.tensor(z_idx, dtype=stack.dtype).view(-1, 1, 1)).sum(0)

        if fused.shape[0] > 2 * self.tile or fused.shape[1] > 2 * self.tile:
            fused = self.normalise_tiles(fused)
        else:
            fused = (fused - fused.mean()) / (fused.std() + 1e-6) * 0.2 + 0.5
        out = self.refiner(fused[None, None])[0, 0]
        return out, depth


def model():
    torch.manual_seed(27)
    return FocusStacker().eval()


def _gen_stack(z, h, w, seed, saturated=(), blank_rows=0):
    """Random specimen texture; slice k is in focus where the height map equals k."""
    g = torch.Generator().manual_seed(seed)
    texture = torch.rand(h, w, generator=g)
    height = torch.linspace(0, z - 1, w).round().view(1, w).expand(h, w)
    blur = F.avg_pool2d(F.pad(texture[None, None], (2, 2, 2, 2), mode="replicate"), 5, stride=1)[0, 0]
    slices = []
    for k in range(z):
        focus = (height - k).abs() < 0.5
        sl = torch.where(focus, texture, blur) * 0.9
        if blank_rows:
            sl[:blank_rows] = 0.3
        if k in saturated:
            sl = torch.ones_like(sl)
        slices.append(sl)
    return torch.stack(slices)


def example_inputs():
    return (_gen_stack(5, 48, 40, 0),)


def dynamic_shapes():
    return ({0: Dim("z", min=2, max=16), 1: Dim("h", min=16, max=160), 2: Dim("w", min=16, max=160)},)


def verify_inputs():
    return [
        example_inputs(),                                     # small frame -> global normalisation
        (_gen_stack(4, 80, 72, 1, saturated=(2,), blank_rows=40),),  # tall frame -> tiles, flat tiles kept, 1 slice skipped
        (_gen_stack(3, 40, 100, 2),),                         # wide frame -> tiles (last column tile partial)
        (_gen_stack(2, 24, 24, 3, saturated=(0, 1)),),        # every slice saturated -> early return
        (_gen_stack(2, 16, 20, 4, saturated=(1,)),),          # only one usable slice
    ]
