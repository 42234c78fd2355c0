"""Forensic blood-alcohol back-calculation (Widmark with first-order absorption).

Inputs: a drink log (time h, volume ml, ABV fraction), the subject (weight kg, sex,
height cm or 0 if unknown, fed state 0..1) and the times the BAC is asked for.
Output: BAC curve in g/kg (per mille), hours until below the sober level, and a status.
"""
import torch
import torch.nn as nn

ETHANOL_DENSITY = 0.789  # g/ml


def widmark_r(weight, height, sex):
    # Watson total body water when the height is known, else classic Widmark factors
    if height > 0 and weight > 0:
        if sex > 0.5:
            tbw = 2.447 + 0.3362 * weight + 0.1074 * height - 0.09516 * 40.0
        else:
            tbw = -2.097 + 0.1069 * height + 0.2466 * weight
        return tbw / (0.8 * weight)
    return weight.new_tensor(0.68 if sex > 0.5 else 0.55)


class WidmarkBac(nn.Module):
    def __init__(self, beta=0.15, legal_limit=0.5, sober_level=0.2, max_hours=24.0):
        super().__init__()
        self.absorption = nn.Linear(3, 1)  # fitted absorption-rate adjustment (food, sex, size)
        self.beta, self.legal_limit = beta, legal_limit
        self.sober_level, self.max_hours = sober_level, max_hours

    def bac_at(self, t, drinks, r, weight, k_abs):
        grams = torch.zeros(())
        for d in range(drinks.shape[0]):
            t_d, ml, abv = drinks[d, 0], drinks[d, 1], drinks[d, 2]
            if t_d > t:
                continue  # not drunk yet at time t
            absorbed = 1.0 - torch.exp(-k_abs * (t - t_d))
            grams = grams + ml * abv * ETHANOL_DENSITY * absorbed
        elapsed = torch.clamp(t - drinks[:, 0].min(), min=0.0)
        return torch.clamp(grams / (r * weight) - self.beta * elapsed, min=0.0)

    def forward(self, drinks, subject, sample_times):
        weight, sex, height, fed = subject[0], subject[1], subject[2], subject[3]
        r = widmark_r(weight, height, sex)
        feats = torch.stack([weight / 100.0, fed, sex])
        k_abs = 0.5 + 3.0 * torch.sigmoid(self.absorption(feats))[0]  # 1/h
        curve = []
        for q in range(sample_times.shape[0]):
            curve.append(self.bac_at(sample_times[q], drinks, r, weight, k_abs))
        curve = torch.stack(curve)
        peak = curve.max()
        if peak > self.legal_limit:
            status = torch.tensor(2)
        elif peak > self.sober_level:
            status = torch.tensor(1)
        else:
            status = torch.tensor(0)
        # walk forward from the last sample until the subject is below the sober level
        t = sample_times.max()
        hours = torch.zeros(())
        bac = self.bac_at(t, drinks, r, weight, k_abs)
        while bac > self.sober_level and hours < self.max_hours:
            hours = hours + 0.25
            bac = self.bac_at(t + hours, drinks, r, weight, k_abs)
        return curve, hours, status


def model():
    torch.manual_seed(5804)
    return WidmarkBac().eval()


def _drinks(rows):
    return torch.tensor(rows, dtype=torch.float32)


def example_inputs():
    drinks = _drinks([[0.0, 500.0, 0.05], [0.5, 500.0, 0.05], [1.2, 150.0, 0.12],
                      [2.5, 40.0, 0.40]])
    subject = torch.tensor([82.0, 1.0, 181.0, 0.5])
    return drinks, subject, torch.linspace(0.25, 4.0, 8)


def dynamic_shapes():
    return ({0: torch.export.Dim("drinks", min=2, max=20)}, None,
            {0: torch.export.Dim("samples", min=2, max=24)})


def verify_inputs():
    g = torch.Generator().manual_seed(4)
    party = torch.stack([torch.sort(12.0 * torch.rand(20, generator=g)).values,
                         30.0 + 70.0 * torch.rand(20, generator=g),
                         0.05 + 0.1 * torch.rand(20, generator=g)], dim=1)
    return [
        # male with height (Watson r), later drinks skipped for early samples, peak > 0.5: status 2
        example_inputs(),
        # female, height unknown (default r), 20 drinks, 24 samples: long walk to sober
        (party, torch.tensor([61.0, 0.0, 0.0, 0.0]), torch.linspace(0.0, 11.5, 24)),
        # female with height, two small beers: peak between 0.2 and 0.5 (status 1)
        (_drinks([[0.0, 500.0, 0.05], [1.0, 330.0, 0.05]]), torch.tensor([66.0, 0.0, 168.0, 1.0]),
         torch.tensor([0.5, 1.5, 2.5])),
        # male, height unknown, one shot each: stays below 0.2 (status 0, no walk)
        (_drinks([[0.0, 20.0, 0.40], [3.0, 20.0, 0.40]]), torch.tensor([95.0, 1.0, 0.0, 1.0]),
         torch.tensor([1.0, 4.0])),
    ]
