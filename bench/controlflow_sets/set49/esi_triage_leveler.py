"""Emergency Severity Index (ESI v4) triage for a queue of arriving patients,
plus a learned acuity-score head over the chief-complaint embedding."""
import torch
import torch.nn as nn
from torch.export import Dim


class ComplaintEncoder(nn.Module):
    def __init__(self, d=16, depth=3):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(d, d) for _ in range(depth)])
        self.head = nn.Linear(d, 5)

    def forward(self, x):
        for layer in self.layers:
            x = x + torch.tanh(layer(x))
        return self.head(x)


class ESITriage(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = ComplaintEncoder()

    def esi_level(self, v, n_resources):
        hr, rr, spo2, sbp, gcs, pain = v.unbind(0)
        if gcs < 9 or spo2 < 88:
            return torch.tensor(1.0)          # needs immediate life-saving intervention
        if sbp < 90 or pain >= 8:
            return torch.tensor(2.0)          # high-risk situation
        if n_resources == 0:
            level = torch.tensor(5.0)
        elif n_resources == 1:
            level = torch.tensor(4.0)
        else:
            level = torch.tensor(3.0)
            # danger-zone vitals up-triage
            if hr > 100 or rr > 20:
                level = torch.tensor(2.0)
        return level

    def forward(self, vitals, ordered, complaint):
        # vitals [N, 6]: hr, rr, spo2, sbp, gcs, pain; ordered [N, 4] expected
        # resources (labs, imaging, IV meds, consult) as 0/1; complaint [N, 16]
        levels = []
        for i in range(vitals.shape[0]):
            levels.append(self.esi_level(vitals[i], ordered[i].sum()))
        return torch.stack(levels), self.encoder(complaint)


def model():
    torch.manual_seed(4908)
    return ESITriage().eval()


def _pt(hr, rr, spo2, sbp, gcs, pain):
    return [hr, rr, spo2, sbp, gcs, pain]


def _batch(rows, res):
    g = torch.Generator().manual_seed(len(rows))
    return (torch.tensor(rows, dtype=torch.float32), torch.tensor(res, dtype=torch.float32),
            torch.randn(len(rows), 16, generator=g))


def example_inputs():
    # one patient of each path
    rows = [_pt(80, 14, 98, 120, 15, 2),    # 0 resources -> 5
            _pt(85, 16, 97, 118, 15, 3),    # 1 resource -> 4
            _pt(90, 16, 97, 125, 15, 5),    # 2+ resources, normal vitals -> 3
            _pt(118, 24, 95, 130, 15, 4),   # 2+ resources, danger vitals -> 2
            _pt(70, 12, 99, 80, 15, 2),     # hypotension -> 2
            _pt(75, 14, 98, 125, 15, 9),    # severe pain -> 2
            _pt(60, 8, 82, 100, 14, 0),     # hypoxia -> 1
            _pt(50, 10, 96, 110, 6, 0)]     # unresponsive -> 1
    res = [[0, 0, 0, 0], [1, 0, 0, 0], [1, 1, 0, 0], [1, 1, 1, 0],
           [1, 0, 1, 0], [0, 1, 0, 0], [1, 1, 1, 1], [1, 1, 1, 1]]
    return _batch(rows, res)


def dynamic_shapes():
    n = Dim("patients", min=2, max=64)
    return ({0: n}, {0: n}, {0: n})


def verify_inputs():
    g = torch.Generator().manual_seed(71)
    n = 64
    vit = torch.stack([60 + 60 * torch.rand(n, generator=g), 10 + 15 * torch.rand(n, generator=g),
                       90 + 9 * torch.rand(n, generator=g), 95 + 60 * torch.rand(n, generator=g),
                       torch.full((n,), 15.0), torch.randint(0, 8, (n,), generator=g).float()], 1).round()
    res = (torch.rand(n, 4, generator=g) < 0.4).float()
    return [
        example_inputs(),
        (vit, res, torch.randn(n, 16, generator=g)),   # random queue, ESI 2-5 paths
        _batch([_pt(72, 13, 99, 121, 15, 1), _pt(77, 15, 98, 119, 15, 0)],
               [[0, 0, 0, 0], [0, 0, 0, 1]]),          # two low-acuity walk-ins (5 and 4)
    ]
