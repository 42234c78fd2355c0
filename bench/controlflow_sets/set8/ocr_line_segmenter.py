"""OCR pre-processing: a small conv ink detector, then a projection-profile scan that splits a text line into glyphs.

The column scan is the classic hand-written state machine (in_glyph / gap counting) over the line width.
"""

import torch
from torch import nn

MAX_GLYPHS = 16


class InkDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 3, padding=1))
        with torch.no_grad():
            self.conv[0].weight.normal_(0.0, 0.1)
            self.conv[0].weight[:, :, 1, 1] = 1.0
            self.conv[0].bias.zero_()
            self.conv[2].weight.normal_(0.0, 0.05)
            self.conv[2].weight[:, :, 1, 1] = 0.5
            self.conv[2].bias.fill_(-0.5)

    def forward(self, img):  # (1, 1, H, W), ink is bright
        return torch.sigmoid(4.0 * self.conv(img))


class LineSegmenter(nn.Module):
    def __init__(self, min_gap: int = 2):
        super().__init__()
        self.ink = InkDetector()
        self.min_gap = min_gap

    def forward(self, img):
        prob = self.ink(img)[0, 0]
        profile = prob.mean(dim=0)  # (W,)
        inked = profile > 0.5
        starts = torch.full((MAX_GLYPHS,), -1.0)
        ends = torch.full((MAX_GLYPHS,), -1.0)
        count = torch.tensor(0)
        in_glyph = torch.tensor(False)
        gap = torch.tensor(0)
        for x in range(img.shape[3]):
            if inked[x] and not in_glyph:
                if count >= MAX_GLYPHS:
                    break
                starts[count] = float(x)
                in_glyph = torch.tensor(True)
                gap = torch.tensor(0)
            elif in_glyph and not inked[x]:
                gap = gap + 1
                if gap >= self.min_gap:
                    ends[count] = float(x - gap + 1)
                    count = count + 1
                    in_glyph = torch.tensor(False)
            elif in_glyph:
                gap = torch.tensor(0)
        if in_glyph and count < MAX_GLYPHS:
            ends[count] = float(img.shape[3])
            count = count + 1
        return prob, starts, ends, count


def model():
    torch.manual_seed(0)
    return LineSegmenter().eval()


def _line(glyphs, width, height=16, seed=0):
    """A dark line image with bright vertical bars at the given (start, end) column ranges."""
    g = torch.Generator().manual_seed(seed)
    img = torch.full((1, 1, height, width), -2.0) + 0.1 * torch.randn(1, 1, height, width, generator=g)
    for a, b in glyphs:
        img[..., 2:-2, a:b] = 2.0
    return img


def example_inputs():
    return (_line([(3, 8), (12, 15), (20, 30)], 40),)


def dynamic_shapes():
    return ({3: torch.export.Dim("width", min=1, max=256)},)


def verify_inputs():
    return [
        (_line([], 30, seed=1),),  # blank line: no glyph
        (_line([(0, 4), (6, 10), (15, 24)], 24, seed=2),),  # glyph at column 0 and one open at the right edge
        (
            _line([(2 + 6 * i, 5 + 6 * i) for i in range(20)], 130, seed=3),
        ),  # more glyphs than MAX_GLYPHS: break
        (_line([(3, 5), (6, 9), (40, 250)], 256, seed=4),),  # a 1-column gap (below min_gap) merges glyphs
        (_line([(0, 1)], 1, seed=5),),  # width 1
    ]
