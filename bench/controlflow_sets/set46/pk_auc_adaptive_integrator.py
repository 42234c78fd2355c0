"""X: pharmacokinetic exposure (AUC) by recursive adaptive Simpson quadrature.

The plasma concentration is a sum of K absorption/elimination compartments
  C(t) = sum_k a_k * (exp(-ke_k t) - exp(-ka t)),
with params (K, 2) = [a_k, ke_k] and ka_interval (3,) = [ka, t_start, t_end].
Returns AUC over the interval (1,), Cmax estimate over the accepted nodes (1,), and the number
of accepted panels (1,).
Constructs: 1, 2, 3, 5, 7
"""
import torch
import torch.nn as nn


class PKAuc(nn.Module):
    def __init__(self, tol=1e-3, max_depth=6):
        super().__init__()
        self.tol = tol
        self.max_depth = max_depth

    def conc(self, t, params, ka):
        c = torch.zeros(())
        for k in range(params.shape[0]):
            a, ke = params[k, 0], params[k, 1]
            c = c + a * (torch.exp(-ke * t) - torch.exp(-ka * t))
        return c

    def _simpson(self, a, b, fa, fm, fb):
        return (b - a) / 6.0 * (fa + 4.0 * fm + fb)

    def _adapt(self, f, a, b, fa, fm, fb, whole, tol, depth, panels):
        m = 0.5 * (a + b)
        lm, rm = 0.5 * (a + m), 0.5 * (m + b)
        flm, frm = f(lm), f(rm)
        left = self._simpson(a, m, fa, flm, fm)
        right = self._simpson(m, b, fm, frm, fb)
        err = left + right - whole
        if depth >= self.max_depth or err.abs() <= 15.0 * tol:
            panels.append(torch.stack([fa, flm, fm, frm, fb]).max())
            return left + right + err / 15.0
        return (self._adapt(f, a, m, fa, flm, fm, left, 0.5 * tol, depth + 1, panels)
                + self._adapt(f, m, b, fm, frm, fb, right, 0.5 * tol, depth + 1, panels))

    def forward(self, params, ka_interval):
        ka, t0, t1 = ka_interval[0], ka_interval[1], ka_interval[2]
        if t1 <= t0:
            return torch.zeros(1), torch.zeros(1), torch.zeros(1)

        def f(t):
            return self.conc(t, params, ka)

        fa, fb = f(t0), f(t1)
        fm = f(0.5 * (t0 + t1))
        whole = self._simpson(t0, t1, fa, fm, fb)
        panels = []
        auc = self._adapt(f, t0, t1, fa, fm, fb, whole, self.tol, 0, panels)
        cmax = torch.stack(panels).max()
        return auc.reshape(1), cmax.reshape(1), torch.tensor([float(len(panels))])


def model():
    torch.manual_seed(4613)
    return PKAuc().eval()


def example_inputs():
    return (torch.tensor([[4.0, 0.15], [1.5, 0.03]]), torch.tensor([1.2, 0.0, 24.0]))


def dynamic_shapes():
    return ({0: torch.export.Dim("compartments", min=2, max=8)}, None)


def verify_inputs():
    return [
        example_inputs(),                                                  # sharp absorption peak: deep refinement
        (torch.tensor([[1e-3, 0.1], [1e-3, 0.2]]), torch.tensor([1.0, 2.0, 3.0])),  # tiny smooth: accepted at depth 0
        (torch.tensor([[5.0, 0.2], [2.0, 0.1]]), torch.tensor([1.0, 5.0, 5.0])),    # empty interval: early return
        (torch.tensor([[3.0, 0.1 + 0.05 * k] for k in range(8)]), torch.tensor([6.0, 0.0, 48.0])),  # K=max, fast ka:
                                                                           # hits max_depth near t=0
    ]
