"""Power-transformer dissolved-gas analysis (DGA): a learned fault classifier over
oil-sample gas concentrations, combined with a rule-based Duval-triangle zone
that is looked up per sample and used as a class prior.

Input: gases [B, 5] in ppm, columns H2, CH4, C2H6, C2H4, C2H2.
Output: fault logits [B, 8] (normal, PD, T1, T2, T3, D1, D2, DT).
"""
import torch
import torch.nn as nn

NORMAL, PD, T1, T2, T3, D1, D2, DT = range(8)


def duval_zone(ch4, c2h4, c2h2):
    total = ch4 + c2h4 + c2h2
    p_ch4 = 100.0 * ch4 / total
    p_c2h4 = 100.0 * c2h4 / total
    p_c2h2 = 100.0 * c2h2 / total
    if p_ch4 >= 98:
        return PD
    if p_c2h2 < 4:
        if p_c2h4 < 20:
            return T1
        elif p_c2h4 < 50:
            return T2
        return T3
    if p_c2h4 >= 50 and p_c2h2 < 15:
        return T3
    if p_c2h2 >= 13:
        if p_c2h4 < 23:
            return D1
        elif p_c2h4 < 40 or p_c2h2 >= 29:
            return D2
    return DT


class DGADiagnoser(nn.Module):
    def __init__(self, min_ppm=30.0, h2_limit=300.0, check_hydrogen=True):
        super().__init__()
        self.min_ppm = min_ppm
        self.h2_limit = h2_limit
        self.check_hydrogen = check_hydrogen
        self.encoder = nn.Sequential(nn.Linear(5, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU())
        self.head = nn.Linear(32, 8)
        self.zone_prior = nn.Parameter(torch.randn(8, 8) * 0.5 + 3.0 * torch.eye(8))

    def classify(self, g):
        h2, ch4, c2h6, c2h4, c2h2 = g.unbind(0)
        if ch4 + c2h4 + c2h2 < self.min_ppm:
            # too little hydrocarbon gas for the triangle; hydrogen alone hints at PD
            if self.check_hydrogen and h2 > self.h2_limit:
                return PD
            return NORMAL
        return duval_zone(ch4, c2h4, c2h2)

    def forward(self, gases):
        h = self.encoder(torch.log1p(gases))
        logits = []
        for i in range(gases.shape[0]):
            zone = self.classify(gases[i])
            logits.append(self.head(h[i]) + self.zone_prior[zone])
        return torch.stack(logits)


def model():
    torch.manual_seed(1)
    return DGADiagnoser().eval()


# H2, CH4, C2H6, C2H4, C2H2 (ppm)
ROWS = {
    "normal": [20.0, 5.0, 3.0, 2.0, 0.0],  # hydrocarbons < 30, low H2
    "h2_pd": [800.0, 10.0, 5.0, 5.0, 0.0],  # hydrocarbons < 30, H2 > limit
    "pd": [50.0, 500.0, 10.0, 5.0, 0.0],  # %CH4 >= 98
    "t1": [50.0, 200.0, 60.0, 30.0, 1.0],  # %C2H2 < 4, %C2H4 < 20
    "t2": [30.0, 100.0, 50.0, 60.0, 2.0],  # %C2H2 < 4, 20 <= %C2H4 < 50
    "t3a": [30.0, 50.0, 20.0, 200.0, 3.0],  # %C2H2 < 4, %C2H4 >= 50
    "t3b": [30.0, 50.0, 10.0, 150.0, 20.0],  # %C2H4 >= 50 and %C2H2 < 15
    "d1": [200.0, 20.0, 5.0, 10.0, 60.0],  # %C2H2 >= 13, %C2H4 < 23
    "d2a": [200.0, 30.0, 5.0, 30.0, 20.0],  # %C2H2 >= 13, 23 <= %C2H4 < 40
    "d2b": [300.0, 20.0, 5.0, 60.0, 50.0],  # %C2H4 >= 40 but %C2H2 >= 29
    "dt_a": [100.0, 60.0, 10.0, 40.0, 10.0],  # 4 <= %C2H2 < 13, %C2H4 < 50
    "dt_b": [100.0, 40.0, 10.0, 45.0, 15.0],  # %C2H2 in [13, 29), %C2H4 >= 40
    "dt_c": [50.0, 20.0, 5.0, 60.0, 20.0],  # %C2H4 >= 50 with %C2H2 >= 15 -> not T3 -> DT
}


def _batch(*names):
    return (torch.tensor([ROWS[n] for n in names]),)


def example_inputs():
    return _batch("t1", "d1", "normal", "dt_a")


def dynamic_shapes():
    return ({0: torch.export.Dim("samples", min=2, max=64)},)


def verify_inputs():
    g = torch.Generator().manual_seed(12)
    big = torch.cat([torch.tensor([ROWS[k] for k in ROWS]), torch.rand(27, 5, generator=g) * 400.0 + 1.0])
    return [
        example_inputs(),  # T1, D1, normal (low gas, low H2), DT (mid C2H2)
        _batch("h2_pd", "pd"),  # low gas with high H2 -> PD; %CH4 >= 98 -> PD
        _batch("t2", "t3a", "t3b"),  # thermal zones T2, T3 (both routes)
        _batch("d2a", "d2b", "dt_b", "dt_c"),  # D2 (both routes of the or), DT fall-through cases
        (big,),  # 40 samples: every zone plus random oil samples (loop many times)
    ]
