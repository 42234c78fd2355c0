"""Nephrology clinic panel: CKD-EPI 2021 eGFR per patient, a small referral-risk
MLP, and the worst KDIGO G-stage of the panel for the clinic dashboard."""
import torch
import torch.nn as nn
from torch.export import Dim


def ckd_epi_2021(scr, age, female):
    """Race-free CKD-EPI 2021 creatinine equation (mL/min/1.73m^2)."""
    is_f = female > 0.5
    kappa = torch.where(is_f, torch.full_like(scr, 0.7), torch.full_like(scr, 0.9))
    alpha = torch.where(is_f, torch.full_like(scr, -0.241), torch.full_like(scr, -0.302))
    ratio = scr / kappa
    gfr = 142.0 * torch.clamp(ratio, max=1.0) ** alpha * torch.clamp(ratio, min=1.0) ** -1.2
    gfr = gfr * torch.pow(torch.full_like(age, 0.9938), age)
    return gfr * torch.where(is_f, torch.full_like(scr, 1.012), torch.ones_like(scr))


def worst_stage(gfr):
    lowest = gfr.min()
    if lowest < 15:
        return torch.tensor(5)  # G5, kidney failure
    elif lowest < 30:
        stage = 4
    elif lowest < 60:
        stage = 3
    else:
        stage = 2 if lowest < 90 else 1
    return torch.tensor(stage)


class EgfrStager(nn.Module):
    def __init__(self):
        super().__init__()
        self.risk = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 1))
        self.albuminuria_a3 = 300.0  # mg/g
        self.min_panel_for_stats = 8
        self.temperature = 1.7  # post-hoc calibration, applied at inference only

    def forward(self, labs):
        # labs: [patients, 4] = creatinine mg/dL, age y, female 0/1, urine ACR mg/g
        scr, age, female, acr = labs.unbind(1)
        gfr = ckd_epi_2021(scr.clamp(min=0.2), age, female)
        feats = torch.stack([gfr / 100.0, age / 100.0, female, torch.log1p(acr), scr], dim=1)
        if labs.shape[0] >= self.min_panel_for_stats:
            feats = (feats - feats.mean(0)) / (feats.std(0) + 1e-3)
        logit = self.risk(feats).squeeze(1)
        risk = torch.sigmoid(logit if self.training else logit / self.temperature)
        severe = acr > self.albuminuria_a3
        if severe.any() and not (gfr < 15).all():
            # A3 albuminuria: bump referral urgency for patients not already in failure
            risk = torch.where(severe, torch.clamp(risk + 0.25, max=1.0), risk)
        return gfr, risk, worst_stage(gfr)


def model():
    torch.manual_seed(5201)
    return EgfrStager().eval()


def _panel(n, seed, scr_lo, scr_hi, acr_hi):
    g = torch.Generator().manual_seed(seed)
    scr = scr_lo + (scr_hi - scr_lo) * torch.rand(n, generator=g)
    age = 30.0 + 50.0 * torch.rand(n, generator=g)
    female = (torch.rand(n, generator=g) > 0.5).float()
    acr = acr_hi * torch.rand(n, generator=g)
    return torch.stack([scr, age, female, acr], 1)


def example_inputs():
    return (_panel(24, 1, 0.7, 2.0, 250.0),)


def dynamic_shapes():
    return ({0: Dim("patients", min=2, max=256)},)


def verify_inputs():
    return [
        example_inputs(),                          # stats path, no A3, worst stage 3
        (_panel(2, 2, 0.6, 0.7, 20.0),),           # tiny panel (no stats), no A3, stage 1
        (_panel(256, 3, 0.8, 1.1, 900.0),),        # max panel, A3 present & not all failing -> bump
        (_panel(5, 4, 6.0, 9.0, 1200.0),),         # all eGFR < 15: A3 but all failing -> no bump; return G5
        (_panel(12, 5, 2.2, 2.6, 100.0),),         # worst stage 4 (15..30)
        (_panel(3, 6, 0.55, 0.6, 10.0),),          # young/normal creatinine -> stage 1 path (>= 90)
        (_panel(9, 7, 0.85, 0.95, 50.0),),         # worst stage 2 (60..90)
    ]
