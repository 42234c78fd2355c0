"""GNSS receiver: detect and repair carrier-phase cycle slips, then Hatch-filter the code.

Kind T. Constructs: 1, 2, 5, 8, 9.
"""
import torch
import torch.nn as nn

# check.py robustness probe: inputs are ranges of ~1e3 cycles while the decisions are taken on
# epoch-to-epoch differences of ~0.1 cycle, so probe with a smaller relative perturbation
PERTURB = 1e-6


class CycleSlipRepairer(nn.Module):
    def __init__(self, slip_thresh=0.5, min_arc=8, window=20, use_hatch=True):
        super().__init__()
        self.slip_thresh = slip_thresh
        self.min_arc = min_arc
        self.window = window
        self.use_hatch = use_hatch
        # learned multipath bias on the code as a function of C/N0
        self.mp_net = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, phase, code, cn0):
        n = phase.shape[0]
        gf = phase - code  # phase-minus-code: slips show up as integer jumps
        offset = torch.zeros_like(phase[0])
        slips = torch.zeros_like(phase[0])
        fixed = [phase[0]]
        for i in range(1, n):
            jump = gf[i] - gf[i - 1]
            if jump.abs() > self.slip_thresh:
                offset = offset + torch.round(jump)
                slips = slips + 1
            fixed.append(phase[i] - offset)
        fixed = torch.stack(fixed)

        if n < self.min_arc or not self.use_hatch:
            # arc too short for carrier smoothing: hand back the raw code
            return fixed, code, slips

        mp = 0.05 * torch.tanh(self.mp_net(cn0[:, None] / 50.0)).squeeze(-1)
        smooth = [code[0] - mp[0]]
        for i in range(1, n):
            k = min(i + 1, self.window)
            pred = smooth[-1] + (fixed[i] - fixed[i - 1])
            smooth.append(pred + (code[i] - mp[i] - pred) / k)
        return fixed, torch.stack(smooth), slips


def model():
    torch.manual_seed(36005)
    return CycleSlipRepairer().eval()


def _arc(seed, n, slips=()):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n, dtype=torch.float32)
    geometry = 2.0e4 + 35.0 * t + 0.02 * t * t  # range in cycles
    code = geometry + 0.05 * torch.randn(n, generator=g)
    phase = geometry + 0.01 * torch.randn(n, generator=g)
    for at, size in slips:
        phase[at:] += size
    cn0 = 35.0 + 10.0 * torch.rand(n, generator=g)
    return phase - 2.0e4, code - 2.0e4, cn0


def example_inputs():
    # 40 epochs, one slip of +3 cycles at epoch 17
    return _arc(1, 40, slips=[(17, 3.0)])


def dynamic_shapes():
    epochs = torch.export.Dim("epochs", min=2, max=3600)
    return ({0: epochs}, {0: epochs}, {0: epochs})


def verify_inputs():
    return [
        example_inputs(),                           # one slip repaired, Hatch filter runs
        _arc(2, 64, slips=[(10, -2.0), (41, 5.0)]),  # two slips
        _arc(3, 30),                                 # clean arc: slip branch never taken
        _arc(4, 5, slips=[(3, 1.0)]),                # short arc -> early return with raw code
        _arc(5, 2),                                  # minimal arc: repair loop runs once, early return
    ]
