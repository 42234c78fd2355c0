"""Bond yield-to-maturity solver for a fixed-income pricing service.

Given cash-flow times (years) and amounts and a dirty price, solve
price = sum cf / (1 + y)^t for y with safeguarded Newton iterations (a
bisection step whenever Newton leaves the bracket), then report modified
duration and convexity. Malformed cash flows are rejected up front.
Constructs: 1, 2, 3, 4, 6, 7
"""
import torch
import torch.nn as nn


def present_value(y, times, cashflows):
    disc = (1.0 + y) ** (-times)
    return (cashflows * disc).sum()


def pv_derivative(y, times, cashflows):
    return (-times * cashflows * (1.0 + y) ** (-times - 1.0)).sum()


def duration_convexity(y, times, cashflows, price):
    disc = (1.0 + y) ** (-times)
    mac = (times * cashflows * disc).sum() / price
    conv = (times * (times + 1.0) * cashflows * disc).sum() / (price * (1.0 + y) ** 2)
    return mac / (1.0 + y), conv


class YieldSolver(nn.Module):
    def __init__(self, tol=1e-3, max_iter=60, lo=-0.05, hi=1.0):
        super().__init__()
        self.tol = tol
        self.max_iter = max_iter
        self.lo = lo
        self.hi = hi

    def forward(self, times, cashflows, price):
        p = price[0]
        if (cashflows < 0).any() or not (p > 0):
            return torch.zeros(4)

        lo = torch.tensor(self.lo)
        hi = torch.tensor(self.hi)
        # current yield as the starting guess
        y = (cashflows[0] / times[0].clamp(min=0.25)) / p
        f = present_value(y, times, cashflows) - p
        it = 0
        bisections = torch.tensor(0.0)
        while f.abs() > self.tol and it < self.max_iter:
            # PV is decreasing in y: shrink the bracket around the root
            if f > 0:
                lo = y
            else:
                hi = y
            d = pv_derivative(y, times, cashflows)
            if d.abs() < 1e-8:
                break
            y_new = y - f / d
            if y_new <= lo or y_new >= hi:
                y_new = 0.5 * (lo + hi)
                bisections = bisections + 1.0
            y = y_new
            f = present_value(y, times, cashflows) - p
            it += 1

        mod_dur, convexity = duration_convexity(y, times, cashflows, p)
        return torch.stack([y, mod_dur, convexity, bisections])


def model():
    return YieldSolver().eval()


def _bond(years, coupon_rate, freq=2, face=100.0):
    n = int(years * freq)
    times = torch.arange(1, n + 1, dtype=torch.float32) / freq
    cfs = torch.full((n,), face * coupon_rate / freq)
    cfs[-1] += face
    return times, cfs


def example_inputs():
    t, c = _bond(10, 0.05)
    return (t, c, torch.tensor([92.0]))


def dynamic_shapes():
    n = torch.export.Dim("n_cashflows", min=2, max=120)
    return ({0: n}, {0: n}, None)


def verify_inputs():
    t10, c10 = _bond(10, 0.05)
    t1, c1 = _bond(1, 0.04)
    t5, c5 = _bond(5, 0.05)
    bad = c10.clone()
    bad[3] = -5.0
    return [
        example_inputs(),                              # discount bond: Newton from below, lower bracket moves
        (t10, c10, torch.tensor([115.0])),             # premium bond: overshoot, upper bracket moves
        (t1, c1, torch.tensor([99.0])),                # short bond, 2 cash flows
        (t5, c5, torch.tensor([150.0])),               # negative yield: Newton leaves the bracket -> one bisection step
        (torch.tensor([10.0, 20.0]), torch.tensor([100.0, 100.0]), torch.tensor([1.0])),  # distressed: flat PV, derivative ~0 -> break
        (t10, bad, torch.tensor([92.0])),              # negative cash flow -> reject (early return)
        (t10, c10, torch.tensor([0.0])),               # non-positive price -> reject via `not`
    ]
