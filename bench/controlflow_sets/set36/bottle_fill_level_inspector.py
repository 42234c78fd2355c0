"""Bottling line QC: fill level of each bottle from a backlit side-view camera crop.

Kind T. Constructs: 1, 2, 3, 5, 7, 9.
"""
import torch
import torch.nn as nn


class FillLevelInspector(nn.Module):
    UNDER, OK, OVER, MISSING = 0.0, 1.0, 2.0, 3.0

    def __init__(self, low=0.52, high=0.78, liquid_thresh=0.4, flag_missing=True):
        super().__init__()
        self.low = low
        self.high = high
        self.liquid_thresh = liquid_thresh
        self.flag_missing = flag_missing
        self.denoise = nn.Conv2d(1, 1, 3, padding=1, bias=False)
        with torch.no_grad():
            # box blur plus a little learned texture
            self.denoise.weight.copy_(torch.full((1, 1, 3, 3), 1.0 / 9) + 0.002 * torch.randn(1, 1, 3, 3))

    def _fill_fraction(self, img):
        profile = img.mean(dim=(0, 2))  # one value per image row
        liquid = profile < self.liquid_thresh
        if not liquid.any():
            return torch.zeros((), dtype=img.dtype)
        return liquid.to(img.dtype).sum() / profile.shape[0]

    def forward(self, crops):
        x = self.denoise(crops)
        levels, verdicts = [], []
        for i in range(crops.shape[0]):
            level = self._fill_fraction(x[i])
            if level < 0.01 and self.flag_missing:
                verdict = torch.tensor(self.MISSING)
            elif level < self.low:
                verdict = torch.tensor(self.UNDER)
            elif level > self.high:
                verdict = torch.tensor(self.OVER)
            else:
                verdict = torch.tensor(self.OK)
            levels.append(level)
            verdicts.append(verdict)
        return torch.stack(levels), torch.stack(verdicts)


def model():
    torch.manual_seed(36004)
    return FillLevelInspector().eval()


def _bottles(seed, fills, height=24, width=16):
    """Bright glass (0.8) above the liquid line, dark liquid (0.15) below it."""
    g = torch.Generator().manual_seed(seed)
    out = []
    for f in fills:
        img = torch.full((1, height, width), 0.8)
        n_liquid = int(round(f * height))
        if n_liquid > 0:
            img[:, height - n_liquid:, :] = 0.15
        out.append(img + 0.03 * torch.randn(1, height, width, generator=g))
    return torch.stack(out)


def example_inputs():
    # four bottles: ok, under, over, ok
    return (_bottles(1, [0.65, 0.3, 0.9, 0.7]),)


def dynamic_shapes():
    batch = torch.export.Dim("batch", min=2, max=32)
    height = torch.export.Dim("height", min=16, max=64)
    return ({0: batch, 2: height},)


def verify_inputs():
    return [
        example_inputs(),                              # ok / under / over verdicts
        (_bottles(2, [0.0, 0.6], height=32),),         # empty (no liquid rows -> early return 0) -> missing; ok
        (_bottles(3, [0.95, 0.4, 0.58], height=20),),  # over, under, ok on a shorter crop
    ]
