"""1-D barcode scanline decoder (EAN-style L-code digits) for a handheld scanner.

A tiny learned denoiser cleans the scanline, then classic decoding: skip the quiet zone,
run-length encode bars/spaces, and match each group of 4 runs against the digit table.
Both outputs have data-dependent length.
"""

import torch
import torch.nn.functional as F
from torch import nn

# run widths (in modules) of the 10 digits, 7 modules each
PATTERNS = [[3, 2, 1, 1], [2, 2, 2, 1], [2, 1, 2, 2], [1, 4, 1, 1], [1, 1, 3, 2],
            [1, 2, 3, 1], [1, 1, 1, 4], [1, 3, 1, 2], [1, 2, 1, 3], [3, 1, 1, 2]]


class BarcodeDecoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.denoise = nn.Conv1d(1, 1, 5, padding=2)
        self.register_buffer("patterns", torch.tensor(PATTERNS, dtype=torch.float32) / 7.0)

    def forward(self, scan: torch.Tensor):
        # scan: (L,) reflectance, bright = space, dark = bar
        x = scan + 0.02 * torch.tanh(self.denoise(scan.view(1, 1, -1))).view(-1)
        thr = torch.clamp(0.5 * (x.max() + x.min()), max=0.5)
        dark = x < thr
        n = dark.shape[0]
        i = 0
        while i < n and not bool(dark[i]):  # quiet zone
            i += 1
        if i == n:
            return torch.zeros(0, dtype=torch.long), torch.zeros(0, dtype=torch.long)
        runs = []
        length = 1
        for j in range(i + 1, n):
            if bool(dark[j] != dark[j - 1]):
                runs.append(length)
                length = 1
            else:
                length += 1
        runs.append(length)
        run_t = torch.tensor(runs, dtype=torch.long)
        ref = run_t[0:4].sum()
        digits = []
        for c in range(run_t.shape[0] // 4):
            widths = run_t[4 * c: 4 * c + 4]
            if widths.sum() * 2 > ref * 3:  # trailing quiet zone / garbage
                break
            norm = widths.float() / widths.sum().float()
            dist = (norm.unsqueeze(0) - self.patterns).abs().sum(-1)
            digits.append(torch.argmax(-dist))
        out = torch.stack(digits) if len(digits) > 0 else torch.zeros(0, dtype=torch.long)
        return run_t, out


def model() -> nn.Module:
    torch.manual_seed(0)
    return BarcodeDecoder().eval()


def _scanline(digits, module=2, lead=10, trail=12, seed=0):
    vals = [0.9] * lead
    for dgt in digits:
        for k, w in enumerate(PATTERNS[dgt]):
            vals += [0.1 if k % 2 == 0 else 0.9] * (w * module)
    vals += [0.9] * trail
    g = torch.Generator().manual_seed(seed)
    t = torch.tensor(vals)
    return t + 0.03 * torch.randn(t.shape[0], generator=g)


def example_inputs() -> tuple:
    return (_scanline([4, 0, 1, 7], seed=0),)


def dynamic_shapes():
    return ({0: torch.export.Dim("length", min=8, max=512)},)


def verify_inputs() -> list:
    blank = torch.full((24,), 0.9)
    blank[0] = 0.7
    short = torch.cat([torch.full((6,), 0.9), torch.full((3,), 0.1), torch.full((5,), 0.9)])
    tail_bar = torch.full((12,), 0.9)
    tail_bar[-1] = 0.1
    return [
        (_scanline([9, 8, 2, 3, 5, 6], module=3, seed=1),),
        (_scanline([1, 2], trail=0, seed=2),),   # ends on the last digit: no break
        (blank,),                                 # nothing dark: quiet zone runs to the end
        (short,),                                 # one bar: fewer than 4 runs, no digits
        (tail_bar,),                              # dark only at the last pixel
    ]
