"""Hospital blood-bank red-cell allocator.

Patients (ABO group 0=O 1=A 2=B 3=AB, Rh, urgency, units requested) are
served in order of urgency; each takes the oldest compatible units first
(first-expiring-first-out). An unmet request from a critical patient triggers
emergency release of uncrossmatched O-negative. A small MLP estimates the
transfusion-reaction risk of each allocation from unit age and patient data.
Constructs: 1, 2, 3, 5, 6, 7
"""
import torch
import torch.nn as nn


def abo_compatible(donor, recipient):
    """Red-cell ABO compatibility: O gives to all, AB receives from all."""
    if donor == 0 or recipient == 3:
        return True
    return bool(donor == recipient)


def rh_compatible(donor_rh, recipient_rh, female_under_50):
    if recipient_rh > 0:
        return True
    # Rh-negative recipient: Rh-positive blood only for non-childbearing patients in shortage
    return bool(donor_rh == 0 or not female_under_50)


class CrossmatchAllocator(nn.Module):
    def __init__(self, critical_urgency=0.9):
        super().__init__()
        self.critical_urgency = critical_urgency
        self.risk = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))

    def forward(self, patients, units):
        # patients: [P, 5] = abo, rh, urgency, units needed, female<50 flag
        # units:    [U, 3] = abo, rh, age in days
        n_p, n_u = patients.shape[0], units.shape[0]
        if (units[:, 2] > 42).all():
            # every unit has expired: nothing can be allocated
            return torch.zeros(n_p, n_u), patients[:, 3].clone(), torch.zeros(n_p), torch.zeros(n_p, n_u)

        alloc = torch.zeros(n_p, n_u)
        pair_risk = torch.zeros(n_p, n_u)
        taken = torch.zeros(n_u, dtype=torch.bool)
        shortfall = torch.zeros(n_p)
        emergency = torch.zeros(n_p)
        unit_order = torch.argsort(units[:, 2], descending=True, stable=True)      # oldest first
        for p in torch.argsort(patients[:, 2], descending=True, stable=True).tolist():
            need = int(patients[p, 3].item())
            for u in unit_order.tolist():
                if need == 0:
                    break
                if taken[u] or units[u, 2] > 42:
                    continue
                if not abo_compatible(units[u, 0], patients[p, 0]):
                    continue
                if not rh_compatible(units[u, 1], patients[p, 1], patients[p, 4] > 0.5):
                    continue
                feats = torch.stack([units[u, 2] / 42.0, patients[p, 2], patients[p, 0] / 3.0, units[u, 0] / 3.0])
                alloc[p, u] = 1.0
                pair_risk[p, u] = torch.sigmoid(self.risk(feats)[0])
                taken[u] = True
                need -= 1
            shortfall[p] = float(need)
            if need > 0 and patients[p, 2] > self.critical_urgency:
                emergency[p] = 1.0

        return alloc, shortfall, emergency, pair_risk


def model():
    torch.manual_seed(11)
    return CrossmatchAllocator().eval()


def example_inputs():
    patients = torch.tensor([
        [1.0, 1.0, 0.50, 2.0, 0.0],   # A+, routine surgery
        [0.0, 0.0, 0.95, 2.0, 1.0],   # O-, trauma, woman under 50
        [3.0, 1.0, 0.30, 1.0, 0.0],   # AB+, elective
    ])
    units = torch.tensor([
        [0.0, 0.0, 30.0],   # O-
        [1.0, 1.0, 20.0],   # A+
        [0.0, 1.0, 35.0],   # O+
        [2.0, 1.0, 10.0],   # B+
        [1.0, 0.0, 44.0],   # A-, expired
        [1.0, 1.0, 5.0],    # A+
    ])
    return (patients, units)


def dynamic_shapes():
    return ({0: torch.export.Dim("patients", min=2, max=16)}, {0: torch.export.Dim("units", min=2, max=32)})


def verify_inputs():
    p, u = example_inputs()
    expired = u.clone()
    expired[:, 2] = 50.0
    p_male = p.clone()
    p_male[1, 4] = 0.0           # O- patient is male: Rh+ units acceptable in shortage
    p_zero = p.clone()
    p_zero[:, 3] = torch.tensor([0.0, 1.0, 0.0])
    return [
        # trauma O- woman gets the only O- unit, O+ refused (Rh rule) -> shortfall + emergency;
        # A+ patient skips taken/expired/B units; AB+ takes B+
        (p, u),
        (p, expired),            # every unit expired -> early return
        (p_male, u),             # Rh+ accepted for the male O- patient: no emergency
        (p_zero, u),             # patients needing 0 units: inner loop breaks immediately
    ]
