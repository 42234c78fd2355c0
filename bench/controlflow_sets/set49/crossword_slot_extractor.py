"""Crossword grid reader: from per-cell 'black square' probabilities (e.g.
from a photo of a printed puzzle) list the across and down answer slots
(row, col, length) and check the grid's 180-degree rotational symmetry."""
import torch
import torch.nn as nn
from torch.export import Dim


class SlotExtractor(nn.Module):
    def __init__(self, min_len=3, black_thresh=0.5):
        super().__init__()
        self.min_len = min_len
        self.black_thresh = black_thresh
        # per-cell calibration of the detector (temperature / bias)
        self.calib = nn.Parameter(torch.tensor([1.0, 0.0]) + 0.01 * torch.randn(2))

    def scan(self, black, across):
        """Runs of white cells along rows of `black` (a [R, C] bool grid)."""
        slots = []
        R, C = black.shape
        for r in range(R):
            run = 0
            for c in range(C + 1):
                if c < C and not black[r, c]:
                    run += 1
                    continue
                if run >= self.min_len:
                    start = c - run
                    if across:
                        slots.append(torch.tensor([r, start, run]))
                    else:
                        slots.append(torch.tensor([start, r, run]))
                run = 0
        return slots

    def forward(self, probs):
        # probs: [H, W] probability that each cell is a black square
        p = torch.sigmoid(self.calib[0] * torch.logit(probs.clamp(1e-4, 1 - 1e-4)) + self.calib[1])
        black = p > self.black_thresh
        across = self.scan(black, across=True)
        down = self.scan(black.T, across=False)
        slots = across + down
        if len(slots) == 0:
            out = torch.zeros(0, 3, dtype=torch.long)
        else:
            out = torch.stack(slots)
        H, W = probs.shape
        if H == W:
            symmetric = (black == black.flip(0).flip(1)).all().float()
        else:
            symmetric = torch.tensor(0.0)
        return out, symmetric


def model():
    torch.manual_seed(4919)
    return SlotExtractor().eval()


def _grid(pattern, seed):
    g = torch.Generator().manual_seed(seed)
    b = torch.tensor(pattern, dtype=torch.float32)
    noise = 0.2 * torch.rand(b.shape, generator=g)
    return (torch.where(b > 0.5, 0.95 - noise, 0.05 + noise),)


MINI = [[1, 0, 0, 0, 0],
        [0, 0, 0, 0, 0],
        [0, 0, 1, 0, 0],
        [0, 0, 0, 0, 0],
        [0, 0, 0, 0, 1]]


def example_inputs():
    # 5x5 mini: square, not symmetric, runs of 2 (too short) and longer slots
    return _grid(MINI, 191)


def dynamic_shapes():
    return ({0: Dim("rows", min=3, max=15), 1: Dim("cols", min=3, max=15)},)


def verify_inputs():
    g = torch.Generator().manual_seed(192)
    half = (torch.rand(15, 15, generator=g) < 0.18).float()
    sym = torch.maximum(half, half.flip(0).flip(1))
    return [
        example_inputs(),
        _grid(sym.tolist(), 193),                         # 15x15 symmetric daily grid
        _grid([[0, 0, 0, 0, 0, 0, 0], [0, 1, 0, 1, 0, 1, 0], [0, 0, 0, 0, 0, 0, 0]], 194),  # 3x7 non-square
        _grid([[1, 0, 1], [0, 1, 0], [1, 0, 1]], 195),    # checkerboard: no slots at all
    ]
