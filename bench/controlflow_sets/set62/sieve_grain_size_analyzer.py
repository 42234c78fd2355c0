"""Geotechnical sieve analysis: gradation curve, D10/D30/D60 and soil class.

Masses retained on a stack of sieves (largest opening first) give the
percent-passing curve. Characteristic diameters are read off the curve by
log-linear interpolation, the uniformity (Cu) and curvature (Cc) coefficients
decide whether a coarse soil is well graded, and a small regression head
estimates hydraulic conductivity from the gradation.

Soil codes: 0 well-graded, 1 poorly-graded, 2 coarse with fines, 3 fine-grained.

Kind: T.  Constructs: 1, 2, 3, 5, 6.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class SieveAnalyzer(nn.Module):
    def __init__(self):
        super().__init__()
        self.k_head = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, openings_mm, retained_g, pan_g):
        # openings_mm: [S] sieve openings, descending; retained_g: [S] mass on each sieve;
        # pan_g: [] mass that went through the finest sieve
        total = retained_g.sum() + pan_g
        passing = 100.0 * (1.0 - torch.cumsum(retained_g, dim=0) / total)

        diameters = []
        for target in (10.0, 30.0, 60.0):
            d = openings_mm[-1]  # finer than the last sieve: report the last opening
            for i in range(openings_mm.shape[0] - 1):
                if passing[i + 1] <= target:
                    hi, lo = passing[i], passing[i + 1]
                    t = (target - lo) / (hi - lo).clamp(min=1e-6)
                    log_d = torch.log(openings_mm[i + 1]) + t * (
                        torch.log(openings_mm[i]) - torch.log(openings_mm[i + 1]))
                    d = torch.exp(log_d)
                    break
            diameters.append(d)
        d10, d30, d60 = diameters

        cu = d60 / d10
        cc = d30 ** 2 / (d10 * d60)
        fines = passing[-1]
        if fines > 50.0:
            soil = 3
        elif cu >= 4.0 and 1.0 <= cc <= 3.0:
            soil = 0
        elif fines < 5.0:
            soil = 1
        else:
            soil = 2

        feats = torch.stack([torch.log10(d10), torch.log10(cu), cc, fines / 100.0])
        log_k = -4.0 + self.k_head(feats).squeeze()
        return torch.stack([d10, d30, d60]), torch.stack([cu, cc, log_k]), torch.tensor(soil)


def model():
    torch.manual_seed(626)
    return SieveAnalyzer().eval()


US_STACK = [19.0, 9.5, 4.75, 2.0, 0.85, 0.425, 0.25, 0.15, 0.075]


def _test(retained, pan, openings=US_STACK):
    return (torch.tensor(openings), torch.tensor(retained), torch.tensor(pan))


def example_inputs():
    # well-graded sand with a little gravel
    return _test([0.0, 30.0, 60.0, 90.0, 110.0, 120.0, 100.0, 80.0, 60.0], 50.0)


def dynamic_shapes():
    s = Dim("sieves", min=3, max=20)
    return ({0: s}, {0: s}, None)


def verify_inputs():
    return [
        example_inputs(),  # Cu ~ 9.7 but Cc ~ 0.89 (chained test fails low), fines 7 % -> code 2; every D found by a break
        _test([0.0, 0.0, 0.0, 10.0, 40.0, 500.0, 400.0, 20.0, 10.0], 20.0),   # uniform sand: Cu < 4, fines 2 % -> code 1
        _test([0.0, 5.0, 10.0, 20.0, 30.0, 40.0, 60.0, 80.0, 90.0], 120.0),   # silty sand, fines 26 %: D10 below the last
                                                                            # sieve (inner loop ends without break) -> code 2
        _test([0.0, 0.0, 10.0, 10.0, 20.0, 30.0, 30.0], 400.0,                # fine-grained, 7 sieves: fines 80 % -> code 3,
              [19.0, 9.5, 4.75, 2.0, 0.85, 0.425, 0.075]),                  # D10/D30/D60 all below the last sieve (no breaks)
        _test([100.0, 320.0, 540.0], 40.0, [19.0, 9.5, 4.75]),                # 3-sieve gravel stack, fines 4 %, Cu < 4 -> code 1
        _test([0.0, 50.0, 150.0, 500.0, 100.0, 40.0, 20.0, 10.0, 30.0], 20.0),  # Cu ~ 6.8, Cc ~ 2.6 -> well graded, code 0
        _test([0.0, 20.0, 60.0, 100.0, 120.0, 110.0, 85.0, 60.0, 50.0], 95.0),  # Cu ~ 13, Cc ~ 0.85, fines 14 % -> code 2
        _test([0.0, 100.0, 300.0, 300.0, 30.0, 20.0, 20.0, 100.0, 80.0], 15.0),  # gap graded: Cu ~ 32, Cc ~ 6.2 (chained
                                                                               # test fails high), fines 1.6 % -> code 1
    ]
