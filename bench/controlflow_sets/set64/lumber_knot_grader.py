"""Sawmill board grading from a line-scan camera.

A board arrives as a 32-pixel-high grayscale strip of variable length.  Long
boards are graded per 128-pixel segment (a trailing stub is graded only if it
is long enough to be sold as a cut), short boards as one piece.  Knots are
dark pixels; the knot area fraction per segment maps to a visual grade and
the board takes the worst segment grade.  A small CNN also produces an
appearance embedding used downstream for matching boards to orders.
"""
import torch
import torch.nn as nn


class SegmentGrader(nn.Module):
    def __init__(self, dark=0.35, select_frac=0.03, common_frac=0.10):
        super().__init__()
        self.dark = dark
        self.select_frac = select_frac
        self.common_frac = common_frac

    def forward(self, seg):
        knot_frac = (seg < self.dark).float().mean()
        if knot_frac > self.common_frac:
            return torch.tensor(3)       # utility
        if knot_frac > self.select_frac:
            return torch.tensor(2)       # common
        if (seg < self.dark).any():
            return torch.tensor(1)       # select (pin knots)
        return torch.tensor(0)           # clear


class LumberGrader(nn.Module):
    def __init__(self, seg_len=128, min_stub=32, emb=8):
        super().__init__()
        self.seg_len = seg_len
        self.min_stub = min_stub
        self.grader = SegmentGrader()
        self.features = nn.ModuleList([
            nn.Conv2d(1, 4, 3, padding=1),
            nn.Conv2d(4, 8, 3, padding=1, stride=2),
            nn.Conv2d(8, emb, 3, padding=1, stride=2),
        ])

    def forward(self, board):
        width = board.shape[-1]
        strip = board[0, 0]
        grades = []
        if width > self.seg_len:
            n_full = width // self.seg_len
            for i in range(n_full):
                grades.append(self.grader(strip[:, i * self.seg_len:(i + 1) * self.seg_len]))
            if width - n_full * self.seg_len >= self.min_stub:
                grades.append(self.grader(strip[:, n_full * self.seg_len:]))
        else:
            grades.append(self.grader(strip))
        grades = torch.stack(grades)

        x = board
        for conv in self.features:
            x = torch.relu(conv(x))
        embedding = x.mean(dim=(2, 3)).squeeze(0)
        return grades.max(), grades, embedding


def model():
    torch.manual_seed(64)
    return LumberGrader().eval()


def _board(width, knots, seed):
    """knots: list of (x, y, radius) in pixels."""
    g = torch.Generator().manual_seed(seed)
    x = torch.arange(width).float()
    grain = 0.7 + 0.05 * torch.sin(x / 7.0)[None, :].expand(32, width)
    img = grain + 0.02 * torch.randn(32, width, generator=g)
    yy, xx = torch.meshgrid(torch.arange(32).float(), x, indexing="ij")
    for kx, ky, r in knots:
        img = torch.where((xx - kx) ** 2 + (yy - ky) ** 2 <= r * r, torch.full_like(img, 0.15), img)
    return img[None, None]


def example_inputs():
    return (_board(300, [(40, 16, 3), (200, 10, 8)], seed=0),)


def dynamic_shapes():
    w = torch.export.Dim("board_px", min=32, max=1024)
    return ({3: w},)


def verify_inputs():
    return [
        example_inputs(),                                   # 2 full segments (select, common) + 44 px stub graded (clear)
        (_board(96, [], seed=1),),                          # short board: single piece, clear
        (_board(120, [(60, 16, 8)], seed=2),),              # short board, common grade (3% < frac <= 10%)
        (_board(140, [(20, 5, 2)], seed=3),),               # one full segment (loop once); 12 px stub dropped; pin knot
        (_board(1000, [(100, 16, 14), (700, 16, 4), (990, 20, 3)], seed=4),),  # 7 segments (utility..clear), 104 px stub kept
    ]
