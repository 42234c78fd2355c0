"""License-plate character reader with greedy CTC decoding (parking-gate camera).

A small CNN turns a 32-pixel-high plate crop of any width into one column of class logits per
4 pixels (class 0 = blank, 1..36 = 0-9A-Z). The greedy CTC decoder walks the columns, drops blanks
and repeats, and stops at the maximum plate length. An unreadable plate returns [-1].
Tricky: for over a dynamic size with continue and break, state carried across iterations,
list built in a loop, data-dependent output length, early return.
"""
import torch
from torch import nn

NUM_CLASSES = 37
MAX_LEN = 8


class PlateReader(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, 32, 3, padding=1), nn.ReLU())
        self.head = nn.Linear(32 * 8, NUM_CLASSES)
        # ink prior: columns without ink strongly favour the blank class
        self.blank_gain = 40.0
        self.ink_thr = 0.3
        self.temperature = 0.05

    def forward(self, img):
        # img: (1, 1, 32, W)
        f = self.features(img)                       # (1, 32, 8, W/4)
        f = f.permute(0, 3, 1, 2).reshape(f.shape[3], -1)
        logits = self.head(f) / self.temperature     # (T, C)
        ink = torch.nn.functional.avg_pool2d(img, (32, 4))[0, 0, 0]   # (T,)
        blank = logits[:, :1] + self.blank_gain * (self.ink_thr - ink).unsqueeze(1)
        logits = torch.cat([blank, logits[:, 1:]], dim=1)
        best = torch.argmax(logits, dim=-1)
        chars = []
        prev = torch.tensor(0)
        for t in range(best.shape[0]):
            k = best[t]
            if k == 0:
                prev = k
                continue
            if k == prev:
                continue
            chars.append(k)
            prev = k
            if len(chars) == MAX_LEN:
                break
        if len(chars) == 0:
            return torch.full((1,), -1, dtype=torch.int64), logits
        return torch.stack(chars), logits


def model():
    torch.manual_seed(11)
    return PlateReader().eval()


def _plate(w, seed, period=24, char_w=12):
    """bright character strips of width char_w every `period` pixels, dark gaps between"""
    g = torch.Generator().manual_seed(seed)
    img = 0.05 * torch.rand(1, 1, 32, w, generator=g)
    for x0 in range(4, w - char_w + 1, period):
        img[..., x0:x0 + char_w] = 0.4 + 0.6 * torch.rand(1, 1, 32, char_w, generator=g)
    return img


def example_inputs():
    return (_plate(96, 0),)


def dynamic_shapes():
    return ({3: torch.export.Dim("w", min=16, max=512)},)


def verify_inputs():
    return [(_plate(256, 1, period=16, char_w=8),), (torch.zeros(1, 1, 32, 48),), (_plate(40, 2),)]
