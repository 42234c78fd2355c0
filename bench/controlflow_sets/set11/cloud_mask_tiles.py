"""Satellite cloud masking on board a small satellite, tile by tile.

A 4-band scene of any size is padded to a multiple of the 16-pixel tile, a small CNN plus a
brightness test gives per-pixel cloud probability, and the mask is decided per tile. Scenes that
are almost fully cloudy are returned early as all-cloud (no downlink of the details).
Typical: branch on dynamic sizes, pad to multiple, early return, tensor if/else, ternary.
"""
import torch
import torch.nn.functional as F
from torch import nn

TILE = 16


class CloudMasker(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(4, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 3, padding=1))
        self.tile_thr = 0.5

    def forward(self, scene):
        # scene: (1, 4, H, W) top-of-atmosphere reflectance (blue, green, red, nir)
        H, W = scene.shape[2], scene.shape[3]
        if H % TILE != 0 or W % TILE != 0:
            ph = (TILE - H % TILE) % TILE
            pw = (TILE - W % TILE) % TILE
            x = F.pad(scene, (0, pw, 0, ph), mode="replicate")
        else:
            x = scene
        brightness = x.mean(dim=1, keepdim=True)
        logits = 8.0 * (brightness - 0.4) + 0.1 * self.net(x)
        prob = torch.sigmoid(logits)
        if prob.mean() > 0.95:
            # fully overcast scene
            return torch.ones(1, 1, H, W), torch.ones(())
        hp, wp = x.shape[2] // TILE, x.shape[3] // TILE
        tiles = prob.reshape(1, 1, hp, TILE, wp, TILE).mean(dim=(3, 5))
        # snow/ice is bright too: use a stricter tile threshold when NIR is very low vs. visible
        ndsi_like = (x[:, 1] - x[:, 3]).mean()
        thr = self.tile_thr + 0.2 if ndsi_like > 0.3 else self.tile_thr
        tile_mask = (tiles > thr).float()
        mask = tile_mask.repeat_interleave(TILE, dim=2).repeat_interleave(TILE, dim=3)
        mask = mask[:, :, :H, :W]
        return mask, mask.mean()


def model():
    torch.manual_seed(2)
    return CloudMasker().eval()


def _scene(h, w, level, seed, snow=False):
    g = torch.Generator().manual_seed(seed)
    s = level + 0.05 * torch.rand(1, 4, h, w, generator=g)
    # a bright cloud blob in the upper-left quarter
    s[:, :, : h // 2, : w // 2] += 0.5
    if snow:
        s[:, 1] += 0.6
    return s


def example_inputs():
    return (_scene(64, 64, 0.1, 0),)


def dynamic_shapes():
    return ({2: torch.export.Dim("h", min=16, max=256), 3: torch.export.Dim("w", min=16, max=256)},)


def verify_inputs():
    return [
        (_scene(50, 70, 0.1, 1),),            # needs padding
        (_scene(32, 48, 0.9, 2),),            # overcast -> early return
        (_scene(40, 32, 0.05, 3, snow=True),),  # snow-like, stricter threshold
        (_scene(16, 16, 0.2, 4),),
        (_scene(32, 40, 0.1, 5),),            # only the width needs padding
    ]
