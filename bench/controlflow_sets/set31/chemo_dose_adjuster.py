"""Anthracycline cycle dose planner.

For every planned chemotherapy cycle the oncology pharmacy gets the pre-cycle
labs.  Cycles are held when blood counts have not recovered, the dose is
reduced for poor kidney function, a learned cardiotoxicity-risk score trims
the dose by up to 5 %, and the lifetime cumulative cap ends the anthracycline
course (later cycles get nothing).
"""
import torch
import torch.nn as nn


class ChemoDosePlanner(nn.Module):
    def __init__(self, dose_per_m2=60.0, lifetime_cap=450.0):
        super().__init__()
        self.dose_per_m2 = dose_per_m2
        self.lifetime_cap = lifetime_cap
        self.risk = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 1))
        # ANC, platelets, CrCl, height, weight -> roughly unit scale
        self.register_buffer("lab_scale", torch.tensor([1 / 5, 1 / 300, 1 / 100, 1 / 180, 1 / 80]))

    def forward(self, labs):
        # labs: [C, 5] per cycle: ANC (1e9/L), platelets (1e9/L), CrCl (mL/min), height (cm), weight (kg)
        doses = []
        cumulative = torch.zeros(())
        for c in range(labs.shape[0]):
            anc, platelets, crcl, height_cm, weight_kg = labs[c].unbind()
            if anc < 1.0 or platelets < 75.0:
                # counts not recovered: hold this cycle
                doses.append(torch.zeros(()))
                continue
            bsa = torch.sqrt(height_cm * weight_kg / 3600.0)  # Mosteller, m^2
            if crcl < 30.0:
                factor = 0.5
            elif crcl < 60.0:
                factor = 0.75
            else:
                factor = 1.0
            risk = torch.sigmoid(self.risk(labs[c] * self.lab_scale)).squeeze()
            dose_m2 = self.dose_per_m2 * factor * (1.0 - 0.05 * risk)
            if cumulative + dose_m2 >= self.lifetime_cap:
                # last anthracycline cycle: give only what is left under the cap
                dose_m2 = self.lifetime_cap - cumulative
                doses.append(dose_m2 * bsa)
                cumulative = cumulative + dose_m2
                break
            doses.append(dose_m2 * bsa)
            cumulative = cumulative + dose_m2
        planned = torch.stack(doses)
        # cycles after the cap get no anthracycline
        planned = torch.cat([planned, planned.new_zeros(labs.shape[0] - planned.shape[0])])
        return planned, cumulative


def model():
    torch.manual_seed(7)
    return ChemoDosePlanner().eval()


def _make_cycle(anc, plt, crcl, h=168.0, w=70.0):
    return [anc, plt, crcl, h, w]


def example_inputs():
    labs = torch.tensor([
        _make_cycle(3.2, 240.0, 95.0),
        _make_cycle(0.7, 180.0, 90.0),   # neutropenic: held
        _make_cycle(2.1, 150.0, 52.0),   # moderate renal impairment
        _make_cycle(2.5, 60.0, 88.0),    # thrombocytopenic: held
        _make_cycle(2.8, 210.0, 24.0),   # severe renal impairment
        _make_cycle(3.0, 220.0, 80.0),
    ])
    return (labs,)


def dynamic_shapes():
    return ({0: torch.export.Dim("cycles", min=2, max=24)},)


def verify_inputs():
    return [
        # holds via ANC and via platelets (continue), all three CrCl bands, cap not reached
        example_inputs(),
        # ten healthy cycles: cap reached at cycle 8 -> break, last two cycles padded with zeros
        (torch.tensor([_make_cycle(3.0 + 0.1 * i, 200.0 + 5 * i, 100.0, 175.0, 82.0) for i in range(10)]),),
        # two cycles, both held (loop only continues, nothing given)
        (torch.tensor([_make_cycle(0.5, 120.0, 70.0), _make_cycle(1.5, 40.0, 70.0)]),),
        # two normal cycles, different body size
        (torch.tensor([_make_cycle(4.0, 300.0, 120.0, 155.0, 52.0), _make_cycle(3.6, 280.0, 110.0, 155.0, 51.0)]),),
    ]
