"""In-line gauge + Western Electric SPC rules for a machined shaft diameter.

Kind T. Constructs: 1, 2, 3, 5, 6, 7.
Each part gets a gauge reading (deviation from the zero master, in
micrometres) and the coolant temperature at measurement time.  Readings
are corrected for thermal expansion of the part and a
small learned gauge-drift model, standardised against the control-chart
centre line and sigma, and checked with Western Electric rules 1
(a point beyond 3 sigma), 2 (2 of 3 beyond 2 sigma on one side) and
4 (8 in a row on one side).  Output: [rule, first violating index] and
the z-scores.
"""
import torch
import torch.nn as nn


def two_of_three_beyond(z, limit=2.0):
    hit = -1
    for i in range(2, z.shape[0]):
        w = z[i - 2:i + 1]
        if (w > limit).sum() >= 2 or (w < -limit).sum() >= 2:
            hit = i
            break
    return hit


def run_on_one_side(z, run_len=8):
    count = 1
    for i in range(1, z.shape[0]):
        if (z[i] > 0) == (z[i - 1] > 0):
            count += 1
            if count >= run_len:
                return i
        else:
            count = 1
    return -1


class SPCMonitor(nn.Module):
    def __init__(self, nominal_mm=25.0, sigma_um=4.0, alpha_steel=11.5e-6):
        super().__init__()
        self.nominal_um, self.sigma, self.alpha = nominal_mm * 1000.0, sigma_um, alpha_steel
        self.drift = nn.Linear(2, 1)
        with torch.no_grad():
            self.drift.weight.mul_(0.1)
            self.drift.bias.mul_(0.1)

    def forward(self, deviation_um, coolant_c):
        # part measured warm is bigger than at the 20 C reference
        corrected = deviation_um - self.alpha * (coolant_c - 20.0) * self.nominal_um
        feats = torch.stack([(coolant_c - 20.0) / 10.0, torch.linspace(0, 1, deviation_um.shape[0])], 1)
        corrected = corrected - self.drift(feats).squeeze(1)
        z = corrected / self.sigma

        beyond = z.abs() > 3.0
        if beyond.any():
            first = torch.nonzero(beyond)[0, 0]
            return torch.stack([torch.tensor(1), first]), z

        i2 = two_of_three_beyond(z)
        if i2 >= 0:
            return torch.tensor([2, i2]), z
        i4 = run_on_one_side(z)
        if i4 >= 0:
            return torch.tensor([4, i4]), z
        return torch.tensor([0, -1]), z


def model():
    torch.manual_seed(3208)
    return SPCMonitor().eval()


def _lot(z_values, temp=20.0):
    z = torch.tensor(z_values, dtype=torch.float32)
    dev_um = 4.0 * z + 11.5e-6 * (temp - 20.0) * 25000.0
    return dev_um, torch.full_like(z, temp)


def example_inputs():
    # in-control lot that alternates around the centre line
    return _lot([0.5, -0.7, 1.1, -0.4, 0.8, -1.2, 0.3, -0.6, 1.4, -0.9, 0.6, -0.2])


def dynamic_shapes():
    n = torch.export.Dim("parts", min=8, max=256)
    return ({0: n}, {0: n})


def verify_inputs():
    return [
        example_inputs(),                                                   # no rule fires
        _lot([0.2, -0.5, 0.4, 3.8, -0.3, 0.1, -0.6, 0.9, -0.4]),             # rule 1 at index 3
        _lot([0.3, -0.6, 2.5, 0.4, 2.6, -0.2, 0.5, -0.7, 0.1]),              # rule 2 (high side) at index 4
        _lot([-0.3, 0.6, -2.4, -2.7, 0.2, -0.5, 0.5, -0.4]),                 # rule 2 (low side: 'or' second operand)
        _lot([0.4, -0.3, 0.5, 0.7, 0.3, 0.9, 1.2, 0.6, 0.8, 0.4, -0.2]),     # rule 4: 8 above centre, ends at 9
        _lot([0.5, -0.4, 0.6, -0.5, 0.3, -0.6, 0.7, -0.2] * 8, temp=26.0),   # warm coolant, 64 parts, in control
        _lot([2.4, -0.3, 2.5, -0.2, 0.3, -0.5, 0.4, -0.6, 0.2], temp=20.0),  # beyond 2 sigma at 0 and 2 -> rule 2 on the first window (i=2)
    ]
