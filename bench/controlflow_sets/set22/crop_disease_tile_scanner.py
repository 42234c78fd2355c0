"""Farm phone app: scan a leaf photo tile by tile with a small CNN (downscale large photos,
pad to whole tiles, optional flip test-time augmentation)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TileNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.head = nn.Linear(16, 1)

    def forward(self, tiles):
        return self.head(self.features(tiles))


class CropDiseaseTileScanner(nn.Module):
    def __init__(self, tile=32, max_side=128, use_tta=True):
        super().__init__()
        self.tile = tile
        self.max_side = max_side
        self.use_tta = use_tta
        self.net = TileNet()

    def forward(self, img):
        if max(img.shape[1], img.shape[2]) > self.max_side:
            img = F.interpolate(img[None], scale_factor=0.5, mode="bilinear", align_corners=False)[0]
        pad_h = (-img.shape[1]) % self.tile
        pad_w = (-img.shape[2]) % self.tile
        if pad_h or pad_w:
            img = F.pad(img, (0, pad_w, 0, pad_h))
        t = self.tile
        n_cols = img.shape[2] // t
        rows = []
        for r in range(img.shape[1] // t):
            strip = img[:, r * t:(r + 1) * t, :]
            tiles = strip.reshape(3, t, n_cols, t).permute(2, 0, 1, 3)
            logits = self.net(tiles)
            if self.use_tta:  # static
                logits = 0.5 * (logits + self.net(tiles.flip(-1)))
            rows.append(torch.sigmoid(logits).squeeze(-1))
        probs = torch.stack(rows)
        return probs, probs.max()


def model():
    torch.manual_seed(0)
    return CropDiseaseTileScanner().eval()


def _leaf(seed, h, w):
    g = torch.Generator().manual_seed(seed)
    return (torch.rand(3, h, w, generator=g),)


def example_inputs():
    return _leaf(1, 64, 80)


def dynamic_shapes():
    return ({1: torch.export.Dim("height", min=2, max=256), 2: torch.export.Dim("width", min=2, max=256)},)


def verify_inputs():
    return [_leaf(2, 96, 64), _leaf(3, 70, 50), _leaf(4, 200, 96)]
