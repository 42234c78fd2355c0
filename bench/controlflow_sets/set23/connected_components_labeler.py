"""Occupancy-grid blob analysis: threshold the grid, label 4-connected
components by iterative max-label propagation until nothing changes, drop
tiny blobs and score each remaining blob with a small MLP on its shape stats."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ConnectedComponentsLabeler(nn.Module):
    def __init__(self, occ_thr=0.5, min_area=2):
        super().__init__()
        self.occ_thr = occ_thr
        self.min_area = min_area
        self.scorer = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))

    def propagate(self, labels, occ):
        p = F.pad(labels, (1, 1, 1, 1))
        neigh = torch.stack([p[:-2, 1:-1], p[2:, 1:-1], p[1:-1, :-2], p[1:-1, 2:]]).amax(0)
        return torch.where(occ, torch.maximum(labels, neigh), torch.zeros_like(labels))

    def forward(self, grid):
        h, w = grid.shape
        occ = grid > self.occ_thr
        labels = torch.where(occ, torch.arange(1, h * w + 1).view(h, w), 0)
        changed = True
        sweeps = 0
        while changed:
            new = self.propagate(labels, occ)
            changed = bool((new != labels).any())
            labels = new
            sweeps += 1
        ids = labels.flatten().unique()
        ids = ids[ids > 0]
        ys = torch.arange(h).view(h, 1).float().expand(h, w)
        xs = torch.arange(w).view(1, w).float().expand(h, w)
        scores, areas = [], []
        for k in range(ids.shape[0]):
            mask = labels == ids[k]
            area = mask.sum()
            if area < self.min_area:
                continue
            af = area.float()
            stats = torch.stack([af / (h * w), (ys * mask).sum() / af / h,
                                 (xs * mask).sum() / af / w, (grid * mask).sum() / af])
            scores.append(torch.sigmoid(self.scorer(stats)).squeeze(0))
            areas.append(area)
        if not scores:
            return torch.zeros(0), torch.zeros(0, dtype=torch.long), torch.tensor(sweeps)
        return torch.stack(scores), torch.stack(areas), torch.tensor(sweeps)


def model():
    torch.manual_seed(0)
    return ConnectedComponentsLabeler().eval()


def _grid(h, w, density, seed):
    g = torch.Generator().manual_seed(seed)
    levels = torch.tensor([0.05, 0.15, 0.25, 0.35, 0.65, 0.75, 0.85, 0.95])
    occ = torch.rand(h, w, generator=g) < density
    lo = levels[torch.randint(0, 4, (h, w), generator=g)]
    hi = levels[torch.randint(4, 8, (h, w), generator=g)]
    return (torch.where(occ, hi, lo),)


def example_inputs():
    return _grid(6, 7, 0.45, 0)


def dynamic_shapes():
    return ({0: torch.export.Dim("rows", min=2, max=128),
             1: torch.export.Dim("cols", min=2, max=128)},)


def verify_inputs():
    return [_grid(4, 4, 0.0, 1), _grid(9, 5, 0.6, 2), _grid(3, 8, 0.25, 3)]
