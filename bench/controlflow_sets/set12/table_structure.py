"""Table structure recognition: group detected cell boxes into rows and columns.

Input: N cell boxes (N, 4) as (x0, y0, x1, y1) in pixels, N dynamic. A small learned
refinement nudges the boxes; a helper sorts cell centres along one axis and starts a new
group whenever the gap to the previous centre exceeds a fraction of the median cell size.
Outputs per-cell row / column ids and an occupancy grid of shape (num_rows, num_cols),
which is data dependent. A header flag says whether the first row is fully populated.
"""
import torch
from torch import nn


def group_1d(centers, sizes, frac):
    order = torch.argsort(centers)
    c = centers[order]
    tol = frac * sizes.median()
    cur = torch.zeros((), dtype=torch.long)
    ids = [cur]
    for i in range(1, c.shape[0]):
        if c[i] - c[i - 1] > tol:
            cur = cur + 1
        ids.append(cur)
    ids = torch.stack(ids)
    out = torch.zeros_like(ids).scatter(0, order, ids)
    return out, cur + 1


class TableStructure(nn.Module):
    def __init__(self):
        super().__init__()
        self.refine = nn.Linear(4, 4)
        self.row_frac = 0.5
        self.col_frac = 0.5

    def forward(self, boxes: torch.Tensor):
        boxes = boxes + 0.5 * torch.tanh(self.refine(boxes / 100.0))
        cx = (boxes[:, 0] + boxes[:, 2]) / 2
        cy = (boxes[:, 1] + boxes[:, 3]) / 2
        w = boxes[:, 2] - boxes[:, 0]
        h = boxes[:, 3] - boxes[:, 1]
        rows, n_rows = group_1d(cy, h, self.row_frac)
        cols, n_cols = group_1d(cx, w, self.col_frac)
        grid = torch.zeros(int(n_rows), int(n_cols))
        grid = grid.index_put((rows, cols), torch.ones_like(cx), accumulate=True)
        header = grid[0].gt(0).all() if n_rows > 1 else torch.zeros((), dtype=torch.bool)
        return rows, cols, grid, header


def model():
    torch.manual_seed(10)
    return TableStructure().eval()


def _table(seed, n_rows, n_cols, drop=0.0, jitter=2.0):
    g = torch.Generator().manual_seed(seed)
    boxes = []
    for r in range(n_rows):
        for c in range(n_cols):
            x0, y0 = 10 + c * 80.0, 10 + r * 30.0
            boxes.append(torch.tensor([x0, y0, x0 + 70, y0 + 24]))
    b = torch.stack(boxes)
    keep = torch.rand(b.shape[0], generator=g) >= drop
    keep[0] = True
    keep[-1] = True
    b = b[keep]
    return (b + torch.randn(b.shape, generator=g) * jitter,)


def example_inputs():
    return _table(0, 4, 3)


def dynamic_shapes():
    return ({0: torch.export.Dim("N", min=2, max=512)},)


def verify_inputs():
    return [_table(1, 1, 2), _table(2, 6, 5, drop=0.3), _table(3, 2, 1), _table(4, 12, 8, drop=0.1)]
