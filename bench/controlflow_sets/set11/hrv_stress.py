"""Heart-rate-variability stress detector on a wristband (RR intervals in ms, any count).

Ectopic/artefact beats are replaced by the median, classic HRV features (mean RR, SDNN, RMSSD,
pNN50, HR) feed a small MLP, and a physiological rule overrides the model when the HRV is very
low at high heart rate. Too-short recordings return early with zero confidence.
Typical: helper with tensor if, branch on a dynamic size with early return, and, ternary.
"""
import torch
from torch import nn


def clean_rr(rr):
    bad = (rr < 300.0) | (rr > 2000.0)
    if bad.any():
        rr = torch.where(bad, rr.median(), rr)
    return rr, bad.float().mean()


class StressDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 1))
        self.register_buffer("mu", torch.tensor([800.0, 50.0, 40.0, 0.2, 75.0]))
        self.register_buffer("sd", torch.tensor([150.0, 25.0, 25.0, 0.15, 15.0]))

    def forward(self, rr):
        # rr: (1, N)
        if rr.shape[1] < 16:
            return torch.zeros(()), torch.zeros(())
        rr, bad_frac = clean_rr(rr[0])
        diff = rr[1:] - rr[:-1]
        mean_rr = rr.mean()
        sdnn = rr.std()
        rmssd = (diff ** 2).mean().sqrt()
        pnn50 = (diff.abs() > 50.0).float().mean()
        hr = 60000.0 / mean_rr
        feats = (torch.stack([mean_rr, sdnn, rmssd, pnn50, hr]) - self.mu) / self.sd
        p = torch.sigmoid(self.mlp(feats)[0])
        if rmssd < 20.0 and hr > 100.0:
            p = torch.maximum(p, torch.full((), 0.9))
        conf = torch.full((), 1.0) if bad_frac < 0.05 else 1.0 - bad_frac
        return p, conf


def model():
    torch.manual_seed(10)
    return StressDetector().eval()


def _rr(n, mean, jitter, seed, artefacts=0):
    g = torch.Generator().manual_seed(seed)
    rr = mean + jitter * torch.randn(1, n, generator=g)
    for k in range(artefacts):
        rr[0, 3 + 5 * k] = 2500.0 if k % 2 == 0 else 150.0
    return rr


def example_inputs():
    return (_rr(64, 850.0, 40.0, 0),)


def dynamic_shapes():
    return ({1: torch.export.Dim("beats", min=2, max=2048)},)


def verify_inputs():
    return [
        (_rr(8, 800.0, 30.0, 1),),                   # too short
        (_rr(120, 520.0, 5.0, 2),),                   # tachycardic, rigid -> stress rule
        (_rr(40, 900.0, 60.0, 3, artefacts=4),),      # many artefacts -> lower confidence
        (_rr(200, 560.0, 30.0, 4, artefacts=1),),     # high HR but variable
        (_rr(50, 950.0, 4.0, 5),),                    # rigid rhythm at rest
    ]
