"""Text-line segmentation for a scanned-page OCR pipeline.

Ink density per row is smoothed with a small learned 1-D filter, then a row
scanner (in_line state machine) cuts the page into text lines.  Lines thinner
than `min_height` rows are treated as specks and dropped.  Output: one row per
detected line: [top, bottom, mean ink density]; empty (0, 3) when the page is
blank.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


class RowProfile(nn.Module):
    def __init__(self, k=3):
        super().__init__()
        self.smooth = nn.Conv1d(1, 1, k, padding=k // 2, bias=False)
        with torch.no_grad():
            self.smooth.weight.copy_(torch.tensor([[[0.25, 0.5, 0.25]]]))
            self.smooth.weight.add_(0.02 * torch.randn(1, 1, k))

    def forward(self, page):
        rows = page.mean(dim=1)
        return self.smooth(rows[None, None, :])[0, 0]


class LineSegmenter(nn.Module):
    def __init__(self):
        super().__init__()
        self.profile = RowProfile()
        self.thresh = 0.2
        self.min_height = 3

    def forward(self, page):
        profile = self.profile(page)
        lines = []
        in_line = False
        top = 0
        for r in range(profile.shape[0]):
            on = profile[r] > self.thresh
            if on and not in_line:
                in_line = True
                top = r
            elif not on and in_line:
                in_line = False
                if r - top >= self.min_height:
                    density = page[top:r].mean()
                    lines.append(torch.stack([torch.tensor(float(top)), torch.tensor(float(r)), density]))
        if in_line:
            # text runs into the bottom margin
            lines.append(torch.stack([torch.tensor(float(top)), torch.tensor(float(page.shape[0])),
                                      page[top:].mean()]))
        if not lines:
            return torch.zeros(0, 3)
        return torch.stack(lines)


def model():
    torch.manual_seed(0)
    return LineSegmenter().eval()


def _make(seed, width, layout):
    """layout: list of (n_rows, is_text)."""
    g = torch.Generator().manual_seed(seed)
    rows = []
    for n, text in layout:
        p = 0.45 if text else 0.01
        rows.append((torch.rand(n, width, generator=g) < p).float())
    return (torch.cat(rows),)


def example_inputs():
    return _make(0, 40, [(4, False), (6, True), (3, False), (5, True), (4, False)])


def dynamic_shapes():
    return ({0: Dim("rows", min=8, max=160), 1: Dim("cols", min=16, max=128)},)


def verify_inputs():
    return [
        _make(1, 48, [(3, False), (7, True), (4, False), (6, True), (3, False), (8, True), (5, False)]),
        _make(2, 32, [(5, False), (2, True), (6, False), (6, True), (4, False)]),   # a speck + a line
        _make(3, 64, [(20, False)]),                                            # blank page
        _make(4, 24, [(2, False), (5, True), (3, False), (7, True)]),              # last line hits bottom
        _make(5, 80, [(6, True), (4, False), (9, True), (3, False), (12, True), (6, False), (4, True), (4, False)]),
    ]
