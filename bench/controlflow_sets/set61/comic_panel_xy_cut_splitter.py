"""Comic page panel splitter (recursive XY-cut) with per-panel embeddings.

A scanned comic page is split at white gutters: first horizontally, then
vertically, repeating on every piece until no gutter is left.  Two-page
spreads are cut down the middle first.  Slivers (page numbers, scan edges)
and blank areas are dropped, each panel is trimmed to its ink, and a small
CNN embeds every panel for downstream reading-order / retrieval models.

KIND X.  Constructs: 1 (if on ink fraction and profile values), 2 (early
return when nothing is found; helpers returning inside branches), 4 (while
loops trimming margins on tensor conditions), 5 (for over a dynamic profile
length; Python lists of regions and panels, torch.stack), 6 (continue on
tensor conditions, return from inside a scan loop), 7 (helpers calling
helpers, submodule), 8 (branch on the dynamic page aspect ratio and on
region sizes), 9 (ModuleList of conv layers, static pooling choice).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim

KIND = "X"
CONSTRUCTS = (1, 2, 4, 5, 6, 7, 8, 9)


class PanelEncoder(nn.Module):
    def __init__(self, channels=(1, 8, 8), out_dim=8, size=16):
        super().__init__()
        self.size = size
        self.convs = nn.ModuleList(
            [nn.Conv2d(cin, cout, 3, padding=1) for cin, cout in zip(channels[:-1], channels[1:])])
        self.proj = nn.Linear(channels[-1], out_dim)

    def forward(self, crop):
        x = F.interpolate(crop[None, None], size=(self.size, self.size), mode="bilinear",
                          align_corners=False)
        for conv in self.convs:
            x = F.relu(conv(x))
            x = F.max_pool2d(x, 2) if x.shape[-1] > 4 else x
        return self.proj(x.mean(dim=(2, 3))).squeeze(0)


def find_gutter(profile, min_len, white):
    """First interior run of >= min_len white entries: (start, end) or None."""
    n = profile.shape[0]
    i = 0
    while i < n and profile[i] > white:
        i += 1  # leading page margin is not a gutter
    run_start = -1
    for j in range(i, n):
        if profile[j] > white:
            if run_start < 0:
                run_start = j
            continue
        if run_start >= 0 and j - run_start >= min_len:
            return run_start, j
        run_start = -1
    return None


class ComicPanelSplitter(nn.Module):
    def __init__(self, min_gutter=3, min_panel=8, white=0.97, ink=0.5, min_ink_frac=0.01):
        super().__init__()
        self.min_gutter = min_gutter
        self.min_panel = min_panel
        self.white = white
        self.ink = ink
        self.min_ink_frac = min_ink_frac
        self.encoder = PanelEncoder()

    def _split(self, page, region):
        y0, x0, y1, x1 = region
        crop = page[y0:y1, x0:x1]
        cut = find_gutter(crop.mean(dim=1), self.min_gutter, self.white)
        if cut is not None:
            return [(y0 + cut[1], x0, y1, x1), (y0, x0, y0 + cut[0], x1)]
        cut = find_gutter(crop.mean(dim=0), self.min_gutter, self.white)
        if cut is not None:
            return [(y0, x0 + cut[1], y1, x1), (y0, x0, y1, x0 + cut[0])]
        return None

    def _trim(self, page, region):
        y0, x0, y1, x1 = region
        while y0 < y1 - 1 and page[y0, x0:x1].mean() > self.white:
            y0 += 1
        while y1 - 1 > y0 and page[y1 - 1, x0:x1].mean() > self.white:
            y1 -= 1
        while x0 < x1 - 1 and page[y0:y1, x0].mean() > self.white:
            x0 += 1
        while x1 - 1 > x0 and page[y0:y1, x1 - 1].mean() > self.white:
            x1 -= 1
        return y0, x0, y1, x1

    def forward(self, page):
        # page: (H, W) grayscale scan in [0, 1], paper = 1
        h, w = page.shape
        if w > 1.3 * h:
            # two-page spread: treat each page separately (right page pushed first)
            regions = [(0, w // 2, h, w), (0, 0, h, w // 2)]
        else:
            regions = [(0, 0, h, w)]

        panels = []
        while regions:
            region = regions.pop()
            y0, x0, y1, x1 = region
            if y1 - y0 < self.min_panel or x1 - x0 < self.min_panel:
                continue  # sliver: page number, scan edge
            crop = page[y0:y1, x0:x1]
            if (crop < self.ink).float().mean() < self.min_ink_frac:
                continue  # blank area
            parts = self._split(page, region)
            if parts is not None:
                regions.extend(parts)
                continue
            panels.append(self._trim(page, region))

        if not panels:
            return torch.zeros(0, 4), torch.zeros(0, 8)
        boxes = torch.tensor(panels, dtype=torch.float32)
        feats = torch.stack([self.encoder(page[y0:y1, x0:x1]) for (y0, x0, y1, x1) in panels])
        return boxes, feats


def model():
    torch.manual_seed(61011)
    return ComicPanelSplitter().eval()


def make_page(h, w, boxes, specks=()):
    """White page with bordered, shaded panels; specks are small dark blobs."""
    page = torch.ones(h, w)
    for (y0, x0, y1, x1) in boxes:
        page[y0:y1, x0:x1] = 0.2
        yy = torch.arange(y0 + 1, y1 - 1)[:, None]
        xx = torch.arange(x0 + 1, x1 - 1)[None, :]
        page[y0 + 1:y1 - 1, x0 + 1:x1 - 1] = 0.55 + 0.3 * torch.sin(0.7 * yy + 0.3 * xx)
    for (y0, x0, y1, x1) in specks:
        page[y0:y1, x0:x1] = 0.1
    return page


def example_inputs():
    # portrait page: one wide panel on top, two panels side by side below
    return (make_page(96, 64, [(4, 4, 40, 60), (46, 4, 92, 28), (46, 33, 92, 60)]),)


def dynamic_shapes():
    return ({0: Dim("height", min=24, max=512), 1: Dim("width", min=24, max=512)},)


def verify_inputs():
    return [
        # horizontal cut, then vertical cut of the bottom strip, three panels, margins trimmed
        example_inputs(),
        # two-page spread (w > 1.3 h): left page blank (continue), right page two
        # stacked panels; a 2-px white line inside the top panel is a too-short run
        (make_page(64, 160, [(6, 86, 30, 154), (31, 86, 33, 154), (36, 86, 58, 154)])
         .index_fill_(0, torch.tensor([30]), 1.0),),
        # blank page: nothing found, early return
        (torch.ones(40, 30),),
        # single full-bleed panel (no leading margin, no gutter) plus a tiny page
        # number below a gutter -> sliver region dropped
        (make_page(60, 40, [(0, 0, 50, 40)], specks=[(55, 18, 59, 22)]),),
    ]
