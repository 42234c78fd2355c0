"""IMRT-style beam-weight optimiser: projected gradient on the dose objective
with organ-at-risk (OAR) back-off, plus a learned plan-quality score.

Constructs: 1, 3 (`and` in the while condition, `not` on .any()),
4 (while with tensor condition), 6 (continue when the OAR is respected),
9 (static loop over a Python list of penalty terms, config flag).
"""
import torch
import torch.nn as nn


class BeamWeightOptimizer(nn.Module):
    def __init__(self, rx=2.0, oar_limit=1.0, max_iter=60, hard_oar=True):
        super().__init__()
        self.rx, self.oar_limit, self.max_iter, self.hard_oar = rx, oar_limit, max_iter, hard_oar
        self.penalties = [("underdose", 1.0), ("overdose", 0.5)]
        self.quality = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))

    def objective_grad(self, A, w, tgt):
        dose = A @ w
        g = torch.zeros_like(w)
        loss = torch.zeros(())
        for name, weight in self.penalties:
            if name == "underdose":
                r = torch.relu(self.rx - dose) * tgt
                g = g - weight * (A.t() @ r)
            else:
                r = torch.relu(dose - 1.1 * self.rx) * tgt
                g = g + weight * (A.t() @ r)
            loss = loss + weight * (r ** 2).sum()
        return loss, g

    def forward(self, A, tgt):
        # A: [V, K] dose per unit beam weight, tgt: [V] 1 = tumour voxel, 0 = OAR voxel
        w = torch.full((A.shape[1],), 0.5)
        loss, g = self.objective_grad(A, w, tgt)
        it = 0
        while loss > 1e-2 * tgt.sum() and it < self.max_iter:
            w = torch.relu(w - 0.2 * g / (A.shape[0] ** 0.5))
            loss, g = self.objective_grad(A, w, tgt)
            it += 1
            oar_dose = (A @ w) * (1 - tgt)
            if not (oar_dose > self.oar_limit).any():
                continue
            back_off = 0.2 if self.hard_oar else 0.05
            oar_share = (A * (1 - tgt).unsqueeze(1)).sum(0) / (A.sum(0) + 1e-6)
            w = w * (1.0 - back_off * oar_share)
        dose = A @ w
        feats = torch.stack([loss / tgt.sum().clamp(min=1.0), dose.max() / self.rx, torch.tensor(float(it)) / self.max_iter])
        return w, dose, torch.sigmoid(self.quality(feats))


def model():
    torch.manual_seed(17)
    return BeamWeightOptimizer().eval()


def _case(V, seed, oar_frac, dose_scale):
    g = torch.Generator().manual_seed(seed)
    A = dose_scale * torch.rand(V, 8, generator=g)
    tgt = (torch.arange(V) >= int(oar_frac * V)).float()
    return A, tgt


def example_inputs():
    return _case(40, 0, 0.3, 0.6)


def dynamic_shapes():
    v = torch.export.Dim("voxels", min=4, max=200)
    return ({0: v}, {0: v})


def verify_inputs():
    return [
        example_inputs(),               # iterates, OAR overdosed on some iterations
        _case(4, 1, 0.5, 0.1),          # min size, tiny doses: OAR never violated (always continue)
        _case(200, 2, 0.2, 1.0),        # max size, strong coupling: OAR back-off
        (torch.full((6, 8), 0.5), torch.ones(6)),  # initial plan already optimal: 0 iterations
    ]
