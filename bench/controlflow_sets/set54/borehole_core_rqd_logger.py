"""Geotechnical core logging: Rock Quality Designation (RQD) for one core run.

Each logged fracture gets a natural-vs-drilling-induced probability from a small
classifier (surface staining from the logger is a strong prior). Drilling-induced
breaks do not split the core for RQD purposes. RQD is the percentage of the run
made of sound pieces at least 10 cm long (Deere); in very broken runs the logger
switches to the Priest-Hudson estimate from fracture frequency. The run is then
graded and flagged for a triple-tube barrel when recovery or RQD is poor.
"""

import torch
import torch.nn as nn

VERY_POOR, POOR, FAIR, GOOD, EXCELLENT = 0, 1, 2, 3, 4


class FractureClassifier(nn.Module):
    def __init__(self, n_feats=6):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(n_feats, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, feats):
        staining = feats[:, 0]
        logit = 0.5 * self.mlp(feats).squeeze(-1) + 6.0 * (staining - 0.5)
        return torch.sigmoid(logit)


class CoreRunLogger(nn.Module):
    def __init__(self, min_piece_m=0.10, broken_count=40):
        super().__init__()
        self.classifier = FractureClassifier()
        self.min_piece_m = min_piece_m
        self.broken_count = broken_count

    def _grade(self, rqd):
        if rqd < 25.0:
            return VERY_POOR
        elif rqd < 50.0:
            return POOR
        elif rqd < 75.0:
            return FAIR
        elif rqd < 90.0:
            return GOOD
        return EXCELLENT

    def forward(self, depth_m, feats, run_length_m, recovery_m):
        run = run_length_m.squeeze(-1)
        natural = self.classifier(feats)

        pieces = []
        last = torch.zeros(())
        for i in range(depth_m.shape[0]):
            if natural[i] < 0.5:
                pieces.append(torch.zeros(()))  # mechanical break, the core is still one piece
                continue
            pieces.append(depth_m[i] - last)
            last = depth_m[i]
        pieces.append(run - last)
        pieces = torch.stack(pieces)

        if depth_m.shape[0] > self.broken_count:
            # too many breaks to measure reliably: Priest-Hudson from natural fracture frequency
            lam = (natural >= 0.5).sum().to(run.dtype) / run
            lt = lam * self.min_piece_m
            rqd = 100.0 * torch.exp(-lt) * (lt + 1.0)
        else:
            sound = torch.where(pieces >= self.min_piece_m, pieces, torch.zeros_like(pieces)).sum()
            rqd = 100.0 * sound / run

        grade = self._grade(rqd)
        triple_tube = recovery_m.squeeze(-1) < 0.85 * run or rqd < 25.0
        return rqd, torch.tensor(grade), pieces, torch.tensor(int(bool(triple_tube)))


def model():
    torch.manual_seed(5)
    return CoreRunLogger().eval()


def _run(depths, staining, seed, run=3.0, recovery=2.9):
    g = torch.Generator().manual_seed(seed)
    depths = torch.tensor(depths)
    n = depths.shape[0]
    feats = torch.rand(n, 6, generator=g)
    feats[:, 0] = torch.tensor(staining)
    return depths, feats, torch.tensor([run]), torch.tensor([recovery])


def _from_pieces(lengths, seed, recovery=2.9):
    """Fractures at the ends of the given natural core pieces (all stained)."""
    depths, d = [], 0.0
    for length in lengths:
        d += length
        depths.append(round(d, 3))
    return _run(depths, [1.0] * len(depths), seed, recovery=recovery)


def _broken(n, seed):
    g = torch.Generator().manual_seed(seed)
    depths = torch.sort(torch.rand(n, generator=g) * 2.9 + 0.05).values
    staining = (torch.rand(n, generator=g) > 0.3).float().tolist()
    return _run(depths.tolist(), staining, seed)


def example_inputs():
    depths = [0.30, 0.38, 0.90, 0.96, 1.03, 1.12, 1.40, 1.82, 1.87, 1.95, 2.20, 2.50]
    staining = [1.0] * 12
    staining[6] = staining[10] = 0.0  # clean, fresh breaks at 1.40 m and 2.20 m
    return _run(depths, staining, 1)


def dynamic_shapes():
    f = torch.export.Dim("n_fractures", min=2, max=64)
    return ({0: f}, {0: f}, None, None)


def verify_inputs():
    return [
        example_inputs(),                                   # two mechanical breaks skipped (continue); good
        _run([1.2, 2.1], [1.0, 1.0], 2),                    # min fractures, long pieces: excellent
        _from_pieces([0.25, 0.09, 0.09] * 7, 3),            # fair
        _from_pieces([0.15, 0.09, 0.09, 0.09] * 7, 4, recovery=2.7),
        # ^ poor; recovery fine, so the triple-tube `or` falls through to rqd < 25 (false)
        _from_pieces([0.08] * 36, 5),                       # very poor -> triple tube via rqd < 25
        _broken(64, 6),                                     # max fractures -> Priest-Hudson branch
        _run([0.5, 1.1, 1.7, 2.3], [1.0, 1.0, 1.0, 1.0], 7, recovery=2.0),
        # ^ excellent RQD but recovery < 85% -> triple tube via first operand
    ]
