"""Forest inventory plot: merchantable timber volume from a timber cruise tally.

Every tallied tree has a diameter at breast height (cm), a measured height
(0 = not measured, as on most cruise plots), a species code and a defect flag.
Missing heights come from a height-diameter curve fitted on the plot's
measured trees (or a regional curve when the plot is too small / has too few
measured heights). A species embedding gives the stem form factor; volume is
split into sawlog and pulpwood and expanded to per-hectare values.

Constructs: 1, 2, 3, 5, 6, 7, 8
"""
import math

import torch
import torch.nn as nn
from torch.export import Dim


class TimberCruise(nn.Module):
    def __init__(self, n_species=6):
        super().__init__()
        self.species_emb = nn.Embedding(n_species, 4)
        self.form = nn.Linear(4, 1)
        self.merch_dbh = 12.0
        self.sawlog_dbh = 25.0
        self.min_local_fit = 5
        self.plot_area_ha = 0.04
        self.register_buffer("regional_ab", torch.tensor([0.45, 0.72]))

    def height_curve(self, dbh, height, measured):
        if dbh.shape[0] < self.min_local_fit or measured.sum() < 3:
            return self.regional_ab[0], self.regional_ab[1]
        w = measured.float()
        x = torch.log(dbh)
        y = torch.log((height - 1.3).clamp(min=0.1))
        xm = (w * x).sum() / w.sum()
        ym = (w * y).sum() / w.sum()
        b = (w * (x - xm) * (y - ym)).sum() / (w * (x - xm) ** 2).sum()
        return ym - b * xm, b

    def forward(self, dbh, height, species, defect):
        measured = height > 0
        a, b = self.height_curve(dbh, height, measured)
        form_factor = 0.35 + 0.15 * torch.sigmoid(self.form(self.species_emb(species))).squeeze(-1)

        volume = torch.zeros(dbh.shape[0])
        sawlog = torch.zeros(())
        pulp = torch.zeros(())
        for i in range(dbh.shape[0]):
            if dbh[i] < self.merch_dbh:
                continue  # sapling: tallied but not merchantable
            if measured[i]:
                h = height[i]
            else:
                h = 1.3 + torch.exp(a + b * torch.log(dbh[i]))
            v = form_factor[i] * math.pi / 4.0 * (dbh[i] / 100.0) ** 2 * h
            volume[i] = v
            if dbh[i] >= self.sawlog_dbh and defect[i] == 0:
                sawlog = sawlog + v
            else:
                pulp = pulp + v
        per_ha = torch.stack([sawlog, pulp]) / self.plot_area_ha
        return volume, per_ha


def model():
    torch.manual_seed(67)
    return TimberCruise().eval()


def _plot(dbh, height, species, defect):
    return (torch.tensor(dbh, dtype=torch.float32), torch.tensor(height, dtype=torch.float32),
            torch.tensor(species, dtype=torch.long), torch.tensor(defect, dtype=torch.long))


def example_inputs():
    # 8 trees, 5 measured heights -> local curve; saplings, sound sawlogs, a defective big tree, pulp-size trees
    return _plot([32.4, 8.1, 27.6, 18.3, 41.2, 10.5, 22.7, 35.9],
                 [24.1, 6.2, 0.0, 17.4, 27.9, 0.0, 0.0, 25.6],
                 [0, 1, 0, 2, 3, 1, 2, 0],
                 [0, 0, 0, 0, 1, 0, 0, 0])


def dynamic_shapes():
    N = Dim("trees", min=2, max=80)
    return ({0: N}, {0: N}, {0: N}, {0: N})


def verify_inputs():
    return [
        example_inputs(),                                                           # local H-D fit, every per-tree branch
        _plot([29.3, 14.8, 9.6], [0.0, 13.9, 0.0], [4, 5, 4], [0, 0, 0]),           # 3 trees < 5: regional curve (size branch)
        _plot([26.1, 19.4, 31.8, 15.2, 44.3, 21.7],
              [0.0, 0.0, 26.3, 0.0, 0.0, 18.8], [1, 1, 2, 2, 3, 3], [0, 1, 1, 0, 0, 0]),  # 6 trees but 2 measured: regional (or)
    ]
