"""Content-aware image retargeting: remove k vertical seams (dynamic programming over rows).

Falls back to dropping the cheapest column when even the best seam would cut through salient
content. Kind X. Constructs: 1, 2, 5, 7, 9.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SeamCarver(nn.Module):
    def __init__(self, n_seams=3, max_seam_cost=None):
        super().__init__()
        self.n_seams = n_seams
        self.max_seam_cost = max_seam_cost  # per-row average energy; None = always carve
        self.saliency = nn.Conv2d(3, 1, 3, padding=1)

    def _energy(self, img):
        gray = img.mean(0, keepdim=True)
        dx = (gray[:, :, 1:] - gray[:, :, :-1]).abs()
        dy = (gray[:, 1:, :] - gray[:, :-1, :]).abs()
        dx = F.pad(dx, (0, 1), mode="replicate")
        dy = F.pad(dy[None], (0, 0, 0, 1), mode="replicate")[0]
        sal = torch.sigmoid(self.saliency(img[None]))[0]
        return (dx + dy + 0.5 * sal)[0]

    def _cumulative(self, energy):
        rows = [energy[0]]
        for i in range(1, energy.shape[0]):
            prev = F.pad(rows[-1][None], (1, 1), value=1e6)[0]
            best = torch.minimum(torch.minimum(prev[:-2], prev[1:-1]), prev[2:])
            rows.append(energy[i] + best)
        return torch.stack(rows)

    def _find_seam(self, energy):
        cost = self._cumulative(energy)
        h, w = cost.shape
        cols = torch.arange(w)
        j = cost[-1].argmin()
        seam = [j]
        for i in range(h - 2, -1, -1):
            # only the three neighbours of the column chosen in the row below are allowed
            allowed = (cols - j).abs() <= 1
            j = torch.where(allowed, cost[i], torch.full_like(cost[i], float("inf"))).argmin()
            seam.append(j)
        seam.reverse()
        return torch.stack(seam), cost[-1].min() / h

    def _remove(self, img, seam):
        c, h, w = img.shape
        keep = torch.arange(w - 1)[None, :]
        idx = keep + (keep >= seam[:, None]).long()  # skip the seam pixel in every row
        return img.gather(2, idx[None].expand(c, h, w - 1))

    def forward(self, img):
        costs = []
        for _ in range(self.n_seams):
            energy = self._energy(img)
            seam, cost = self._find_seam(energy)
            if self.max_seam_cost is not None and cost > self.max_seam_cost:
                # every seam crosses salient content: drop the flattest column instead
                col = energy.sum(0).argmin()
                seam = col.expand(img.shape[1])
            img = self._remove(img, seam)
            costs.append(cost)
        return img, torch.stack(costs)


def model():
    torch.manual_seed(36011)
    return SeamCarver(n_seams=3, max_seam_cost=0.38).eval()


def _scene(seed, h, w, busy=False):
    g = torch.Generator().manual_seed(seed)
    img = 0.3 + 0.25 * torch.rand(3, h, w, generator=g)
    # a textured "object" in the middle
    r0, r1, c0, c1 = h // 4, 3 * h // 4, w // 3, 2 * w // 3
    img[:, r0:r1, c0:c1] = torch.rand(3, r1 - r0, c1 - c0, generator=g)
    if busy:
        img = torch.rand(3, h, w, generator=g)  # texture everywhere: no cheap seam
    return img


def example_inputs():
    # 12x18 frame: smooth background, textured object -> seams go through the background
    return (_scene(4, 12, 18),)


def dynamic_shapes():
    h = torch.export.Dim("h", min=4, max=64)
    w = torch.export.Dim("w", min=8, max=64)
    return ({1: h, 2: w},)


def verify_inputs():
    return [
        example_inputs(),                    # all three seams cheap -> carved
        (_scene(2, 9, 14, busy=True),),      # textured everywhere -> fallback column drop
        (_scene(2, 4, 8),),                  # tiny frame, DP over 4 rows
    ]
