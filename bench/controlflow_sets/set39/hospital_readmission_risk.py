"""30-day hospital readmission risk from discharge vitals/labs (with missing values) and
the list of diagnosis codes of each patient, with two clinical override rules on top of
the network and an alert vector for the care-transition team.

Kind T. Constructs: 1 (if on isnan().any(), .any() of rule masks), 2 (early return of the
no-alert case, variable reassigned in one branch), 3 (or / and on tensor predicates),
8 (truncate the code list when dim 1 is longer than max_codes), 9 (config flag, loop over
nn.ModuleList).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_VITALS = 10   # age, prior admissions (12 mo), length of stay, sys BP, heart rate, SpO2,
                # creatinine, hemoglobin, sodium, n. discharge meds
N_CODES = 300   # ICD code vocabulary (0 = padding)


class ReadmissionRisk(nn.Module):
    def __init__(self, use_codes=True, max_codes=20, hidden=32, alert_threshold=0.8):
        super().__init__()
        self.use_codes = use_codes
        self.max_codes = max_codes
        self.alert_threshold = alert_threshold
        self.register_buffer("fill_values", torch.tensor([65.0, 0.0, 4.0, 125.0, 80.0, 96.0, 1.0, 12.5, 139.0, 6.0]))
        self.register_buffer("mean", torch.tensor([62.0, 0.8, 5.0, 128.0, 82.0, 95.5, 1.1, 12.0, 138.0, 7.0]))
        self.register_buffer("std", torch.tensor([16.0, 1.2, 4.0, 20.0, 14.0, 2.5, 0.6, 2.0, 4.0, 4.0]))
        self.code_emb = nn.Embedding(N_CODES, 16, padding_idx=0)
        in_dim = N_VITALS + (16 if use_codes else 0)
        self.layers = nn.ModuleList([nn.Linear(in_dim, hidden), nn.Linear(hidden, hidden)])
        self.out = nn.Linear(hidden, 1)

    def forward(self, vitals, codes):
        # vitals: (B, 10) with NaN for values not measured; codes: (B, K) int64, 0-padded
        if torch.isnan(vitals).any():
            vitals = torch.where(torch.isnan(vitals), self.fill_values.expand_as(vitals), vitals)
        if codes.shape[1] > self.max_codes:
            codes = codes[:, : self.max_codes]
        x = (vitals - self.mean) / self.std
        if self.use_codes:  # config flag
            e = self.code_emb(codes)
            n = (codes != 0).sum(1, keepdim=True).clamp(min=1)
            x = torch.cat([x, e.sum(1) / n], 1)
        h = x
        for layer in self.layers:
            h = F.relu(layer(h))
        risk = torch.sigmoid(self.out(h).squeeze(-1))

        age, prior = vitals[:, 0], vitals[:, 1]
        frail = (age >= 85) & (prior >= 3)
        unstable = (vitals[:, 3] < 90) | (vitals[:, 5] < 88)
        if frail.any() or unstable.any():
            risk = torch.where(frail | unstable, risk.clamp(min=0.9), risk)
        alert = risk > self.alert_threshold
        if not alert.any():
            return risk, torch.zeros_like(risk)
        # rank alerted patients by risk so the team sees the worst first
        priority = torch.where(alert, risk, torch.zeros_like(risk))
        return risk, priority / priority.max()


def model():
    torch.manual_seed(3902)
    return ReadmissionRisk().eval()


def _make_patients(seed, b, k, n_codes=None):
    g = torch.Generator().manual_seed(seed)
    v = torch.stack([
        40 + 40 * torch.rand(b, generator=g),           # age 40..80
        torch.randint(0, 3, (b,), generator=g).float(),  # prior admissions 0..2
        1 + 9 * torch.rand(b, generator=g),
        100 + 40 * torch.rand(b, generator=g),           # sys BP 100..140
        60 + 40 * torch.rand(b, generator=g),
        92 + 7 * torch.rand(b, generator=g),             # SpO2 92..99
        0.6 + torch.rand(b, generator=g),
        10 + 5 * torch.rand(b, generator=g),
        133 + 10 * torch.rand(b, generator=g),
        torch.randint(1, 15, (b,), generator=g).float(),
    ], 1)
    codes = torch.randint(1, N_CODES, (b, k), generator=g)
    lens = n_codes if n_codes is not None else torch.randint(1, k + 1, (b,), generator=g)
    codes = torch.where(torch.arange(k)[None, :] < lens[:, None], codes, torch.zeros_like(codes))
    return v, codes


def example_inputs():
    # 8 stable patients, no missing values, 12 code slots (no truncation): no rule fires,
    # no alert -> early return
    return _make_patients(1, 8, 12)


def dynamic_shapes():
    batch = torch.export.Dim("batch", min=2, max=64)
    k = torch.export.Dim("codes", min=2, max=32)
    return ({0: batch}, {0: batch, 1: k})


def verify_inputs():
    ex = example_inputs()   # the example: path described in example_inputs()
    # missing labs (NaN imputation taken), no rule fires -> early return without alerts
    v, c = _make_patients(2, 5, 6)
    v[1, 6] = float("nan")
    v[3, 7] = float("nan")
    v[4, 3] = float("nan")
    missing = (v, c)
    # frail elderly patient (age 90, 4 prior admissions): rule fires -> alert path;
    # 28 code slots > max_codes -> truncation taken
    v, c = _make_patients(3, 6, 28)
    v[2, 0], v[2, 1] = 91.0, 4.0
    frail = (v, c)
    # hypotensive patient only (unstable via "or" second operand path), 2 patients, 2 codes
    v, c = _make_patients(4, 2, 2)
    v[0, 3] = 82.0
    hypo = (v, c)
    # age >= 85 but few prior admissions (frail false) and SpO2 85 (unstable) ; large batch
    v, c = _make_patients(5, 40, 32)
    v[7, 0], v[7, 1] = 88.0, 1.0
    v[9, 5] = 85.0
    big = (v, c)
    return [ex, missing, frail, hypo, big]
