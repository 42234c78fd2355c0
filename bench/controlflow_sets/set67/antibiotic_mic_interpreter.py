"""Automated broth-microdilution reader for antimicrobial susceptibility testing.

Each drug on the panel has a row of wells with doubling concentrations; a
small 1-D CNN plus the optical-density rise decides growth in every well, the
MIC is read as the lowest concentration that inhibits growth, and the MIC is
interpreted against the per-drug clinical breakpoints (S / I / R).

Constructs: 1, 2, 3, 5, 9
"""
import torch
import torch.nn as nn
from torch.export import Dim


class GrowthCurveNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(1, 8, kernel_size=3, padding=1)
        self.head = nn.Linear(8, 1)

    def forward(self, curves):                       # (K, T)
        h = torch.relu(self.conv(curves.unsqueeze(1)))
        return self.head(h.mean(-1)).squeeze(-1)     # (K,)


class MicInterpreter(nn.Module):
    def __init__(self, n_conc=8, eucast=True):
        super().__init__()
        self.net = GrowthCurveNet()
        self.eucast = eucast
        self.min_control_rise = 0.25
        # log2 concentrations of the dilution series: 0.125 ... 16 mg/L
        self.register_buffer("log2_conc", torch.arange(n_conc, dtype=torch.float32) - 3.0)

    def well_growth(self, od):
        D, C, T = od.shape
        flat = od.reshape(D * C, T)
        rise = flat[:, -1] - flat[:, 0]
        score = 10.0 * rise - 1.5 + 0.1 * torch.tanh(self.net(flat))
        return (score > 0).reshape(D, C)

    def forward(self, od, ctrl, breakpoints):
        n_drugs = od.shape[0]
        # growth-control well must grow, otherwise the whole plate is invalid
        if ctrl[-1] - ctrl[0] < self.min_control_rise:
            return torch.full((n_drugs,), -99.0), torch.zeros(n_drugs, 3)

        grow = self.well_growth(od)
        idx = torch.arange(od.shape[1])
        mics = []
        for d in range(n_drugs):
            g = grow[d]
            if g.all() or g[-1]:
                # growth at the top concentration: report "> highest"
                mic = self.log2_conc[-1] + 1.0
            elif not g.any():
                mic = self.log2_conc[0]
            else:
                last_growth = torch.where(g, idx, -1).max()
                mic = self.log2_conc[last_growth + 1]
            mics.append(mic)
        mic = torch.stack(mics)

        s_bp, r_bp = breakpoints[:, 0], breakpoints[:, 1]
        susceptible = mic <= s_bp
        resistant = mic > r_bp
        intermediate = ~susceptible & ~resistant
        if self.eucast:  # static: EUCAST reads I as "susceptible, increased exposure"
            susceptible = susceptible | intermediate
        calls = torch.stack([susceptible, intermediate, resistant], dim=1).float()
        return mic, calls


def model():
    torch.manual_seed(67)
    return MicInterpreter().eval()


def _curve(T, grows, gen):
    t = torch.linspace(0, 1, T)
    base = 0.05 + 0.004 * torch.randn(T, generator=gen)
    if grows:
        return base + 0.7 * torch.sigmoid((t - 0.45) * 12) - 0.7 * torch.sigmoid(torch.tensor(-0.45 * 12))
    return base - base[0] + 0.05


def _plate(patterns, T, seed, ctrl_ok=True, bps=None):
    gen = torch.Generator().manual_seed(seed)
    od = torch.stack([torch.stack([_curve(T, bool(w), gen) for w in row]) for row in patterns])
    ctrl = _curve(T, ctrl_ok, gen)
    if bps is None:
        bps = [[0.0, 2.0]] * len(patterns)
    return od, ctrl, torch.tensor(bps, dtype=torch.float32)


def example_inputs():
    # drugs: grows everywhere / inhibited everywhere / MIC in the middle / skipped-well with top growth
    return _plate([[1] * 8, [0] * 8, [1, 1, 1, 0, 0, 0, 0, 0], [1, 1, 0, 0, 0, 1, 0, 1]], 12, 1,
                  bps=[[0.0, 2.0], [-1.0, 1.0], [-1.0, 1.0], [0.0, 3.0]])


def dynamic_shapes():
    D, T = Dim("drugs", min=2, max=16), Dim("timepoints", min=6, max=64)
    return ({0: D, 2: T}, {0: T}, {0: D})


def verify_inputs():
    return [
        example_inputs(),  # all four MIC branches: g.all(), g[-1] only, none grow, middle MIC (S, I and R calls)
        _plate([[1, 0, 0, 0, 0, 0, 0, 0], [1, 1, 1, 1, 1, 1, 0, 0]], 8, 2, ctrl_ok=False),  # invalid plate: early return
        _plate([[1, 1, 1, 1, 1, 0, 0, 0], [0] * 8, [1] * 7 + [0]], 20, 3,
               bps=[[1.0, 1.0], [-2.0, 0.0], [2.0, 5.0]]),  # valid plate, middle / none / highest-inhibiting MIC
    ]
