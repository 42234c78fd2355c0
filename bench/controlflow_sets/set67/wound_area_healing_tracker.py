"""Chronic-wound follow-up: wound area from clinic photos and a healing-trajectory flag.

A colour prior (wound bed is much redder than peri-wound skin) plus a small
segmentation CNN give a soft wound mask per visit photo; the soft area is
converted to cm^2, per-day closure rates between visits are averaged (same-day
re-takes are skipped) and the percent area reduction decides
healing / stalled / deteriorating (the 4-week 40 % rule used in wound clinics).

Constructs: 1, 2, 3, 5, 6
"""
import math

import torch
import torch.nn as nn
from torch.export import Dim


class WoundHealingTracker(nn.Module):
    def __init__(self):
        super().__init__()
        self.seg = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
            nn.Conv2d(8, 1, 1),
        )
        self.cm2_per_px = 0.04
        self.min_area = 2.0

    def wound_area(self, photos):
        r, g, b = photos[:, 0], photos[:, 1], photos[:, 2]
        redness = r - 0.5 * (g + b)
        logit = 20.0 * (redness - 0.35) + 0.3 * torch.tanh(self.seg(photos)[:, 0])
        return torch.sigmoid(logit).sum(dim=(1, 2)) * self.cm2_per_px

    def forward(self, photos, days):
        area = self.wound_area(photos)
        if area[0] < self.min_area:
            # no measurable wound at the baseline visit
            return area, torch.zeros(3)

        rates = []
        for i in range(1, photos.shape[0]):
            gap = days[i] - days[i - 1]
            if gap <= 0:
                continue  # same-day re-take or out-of-order upload
            rates.append((area[i - 1] - area[i]) / gap)
        if len(rates) > 0:
            rate = torch.stack(rates).mean()
        else:
            rate = torch.zeros(())

        reduction = 1.0 - area[-1] / area[0]
        if reduction >= 0.4:
            status = torch.tensor(0.0)  # on track
        elif rate < 0 and area[-1] > 1.1 * area[0]:
            status = torch.tensor(2.0)  # deteriorating
        else:
            status = torch.tensor(1.0)  # stalled: refer to specialist
        return area, torch.stack([reduction, rate, status])


def model():
    torch.manual_seed(67)
    return WoundHealingTracker().eval()


def _photos(radii, days, seed):
    gen = torch.Generator().manual_seed(seed)
    yy, xx = torch.meshgrid(torch.arange(32.0), torch.arange(32.0), indexing="ij")
    dist = ((yy - 15.5) ** 2 + (xx - 15.5) ** 2).sqrt()
    skin = torch.tensor([0.75, 0.62, 0.55]).view(3, 1, 1)
    bed = torch.tensor([0.70, 0.15, 0.15]).view(3, 1, 1)
    imgs = []
    for r in radii:
        m = torch.sigmoid((r - dist) * 4.0) if r > 0 else torch.zeros(32, 32)
        img = skin * (1 - m) + bed * m + 0.01 * torch.randn(3, 32, 32, generator=gen)
        imgs.append(img.clamp(0, 1))
    return torch.stack(imgs), torch.tensor(days, dtype=torch.float32)


def example_inputs():
    # weekly visits, wound shrinking: reduction >= 40 % -> healing
    return _photos([10, 9, 7, 5], [0, 7, 14, 28], 1)


def dynamic_shapes():
    V = Dim("visits", min=2, max=12)
    return ({0: V}, {0: V})


def verify_inputs():
    return [
        example_inputs(),                                    # healing branch, no skipped gaps
        _photos([0, 4], [0, 7], 2),                          # no wound at baseline: early return
        _photos([6, 7, 8, 8, 9], [0, 7, 7, 14, 21], 3),      # one same-day gap (continue); deteriorating (rate<0 and growth>10 %)
        _photos([8, 8, 7.5, 7], [0, 10, 20, 30], 4),         # reduction < 40 %, rate > 0: stalled (and short-circuits)
        _photos([9, 9, 9], [5, 5, 5], 5),                    # all gaps same-day: every iteration continues, empty rate list
        _photos([8, 8.3], [0, 7], 6),                        # rate < 0 but growth < 10 %: stalled
    ]
