"""QR-code detection front end: scan image rows for the 1:1:3:1:1
dark/light/dark/light/dark run pattern of the finder squares, confirm each hit
with a vertical cross-check through its centre, and cluster the confirmed hits
into finder-pattern candidates (row, column, module size, votes).

Kind X; constructs 1, 2, 3, 5, 6, 7, 8."""
import torch
import torch.nn as nn
from torch.export import Dim


def binarize(img):
    thresh = 0.5 * (img.max() + img.min())
    return img < thresh                                   # dark = True


def run_lengths(line):
    """Run lengths and start offsets of a boolean line."""
    change = (line[1:] != line[:-1]).nonzero().squeeze(1) + 1
    bounds = torch.cat([torch.zeros(1, dtype=torch.int64), change,
                        torch.full((1,), line.shape[0], dtype=torch.int64)])
    return bounds[1:] - bounds[:-1], bounds[:-1]


def close(run, expected, tol):
    return (run - expected).abs() <= tol


def finder_ratio(runs, tol_frac=0.45):
    """True if 5 runs look like 1:1:3:1:1."""
    total = runs.sum()
    if total < 7:
        return False
    module = total / 7.0
    tol = module * tol_frac
    return bool(close(runs[0], module, tol) and close(runs[1], module, tol)
                and close(runs[2], 3 * module, 3 * tol)
                and close(runs[3], module, tol) and close(runs[4], module, tol))


def cross_check(column, center):
    """Look for the same pattern vertically around `center` in a column."""
    runs, starts = run_lengths(column)
    idx = int((starts <= center).sum()) - 1               # run containing the centre
    if idx < 2 or idx + 2 >= runs.shape[0] or not bool(column[starts[idx]]):
        return False
    return finder_ratio(runs[idx - 2:idx + 3])


class FinderLocator(nn.Module):
    def __init__(self):
        super().__init__()
        self.max_candidates = 3
        self.min_votes = 2

    def scan_row(self, dark, y):
        runs, starts = run_lengths(dark[y])
        hits = []
        first = 0 if bool(dark[y, 0]) else 1              # runs alternate; patterns start on a dark run
        for i in range(first, runs.shape[0] - 4, 2):
            window = runs[i:i + 5]
            if not finder_ratio(window):
                continue
            cx = starts[i + 2] + runs[i + 2] // 2
            if cross_check(dark[:, cx], y):
                hits.append(torch.stack([torch.tensor(float(y)), cx.float(), window.sum() / 7.0]))
        return hits

    def forward(self, img):
        # img: [H, W] grayscale in 0..1
        dark = binarize(img)
        step = 2 if img.shape[0] > 40 else 1              # big images: every other row is plenty
        clusters = []                                     # [sum_y, sum_x, sum_module, votes]
        for y in range(0, img.shape[0], step):
            for hit in self.scan_row(dark, y):
                for c in clusters:
                    if (c[0] / c[3] - hit[0]).abs() < 3 * hit[2] and (c[1] / c[3] - hit[1]).abs() < hit[2]:
                        c += torch.cat([hit, torch.ones(1)])
                        break
                else:
                    clusters.append(torch.cat([hit, torch.ones(1)]))
        found = []
        for c in clusters:
            if c[3] < self.min_votes:
                continue                                  # single-row hit: noise
            found.append(torch.cat([c[:3] / c[3], c[3:]]))
            if len(found) == self.max_candidates:
                break
        if len(found) == 0:
            return torch.zeros(0, 4)
        return torch.stack(found)


def model():
    return FinderLocator().eval()


def _finder(m):
    """7x7-module finder square scaled by m pixels per module (1 = dark)."""
    f = torch.ones(7, 7)
    f[1:6, 1:6] = 0
    f[2:5, 2:5] = 1
    return f.repeat_interleave(m, 0).repeat_interleave(m, 1)


def _qr(H, W, corners, seed, noise=True, stripes=()):
    """corners: (row, col, px per module) of finder squares; stripes: (row, col)
    of 4-row bands with a 1:1:3:1:1 pattern across (a horizontal look-alike)."""
    g = torch.Generator().manual_seed(seed)
    dark = torch.zeros(H, W)
    if noise:
        dark[:, :] = (torch.rand(H, W, generator=g) < 0.15).float()
    for (y, x, m) in corners:
        dark[y - m:y + 8 * m, x - m:x + 8 * m] = 0.0     # quiet zone
        dark[y:y + 7 * m, x:x + 7 * m] = _finder(m)
    band = torch.tensor([1, 1, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1], dtype=torch.float32)
    for (y, x) in stripes:
        dark[max(y - 1, 0):y + 5, x - 2:x + 16] = 0.0
        dark[y:y + 4, x:x + 14] = band
    return 0.9 - 0.8 * dark                               # dark modules print dark


def example_inputs():
    return (_qr(40, 40, [(2, 2, 2), (2, 24, 2), (24, 2, 2)], 1),)


def dynamic_shapes():
    return ({0: Dim("rows", min=8, max=64), 1: Dim("cols", min=8, max=64)},)


def verify_inputs():
    return [
        example_inputs(),                                   # three finders at 2 px/module, every row scanned
        (_qr(8, 8, [(1, 1, 1)], 2, noise=False),),          # min size: one 1 px/module finder, 3 votes
        (_qr(64, 64, [(3, 3, 3), (3, 40, 3), (29, 29, 1), (40, 3, 3), (40, 40, 3)], 3),),
                                                            # max size, step 2: the small finder gets only 1 vote
                                                            # (dropped), stop after 3 candidates
        (_qr(30, 50, [], 4, stripes=[(0, 10), (14, 30)]),), # look-alike bands: rejected by the vertical cross-check
        (_qr(41, 20, [(20, 2, 2)], 5),),                    # tall image (step 2), one finder
    ]
