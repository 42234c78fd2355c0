"""Physics lab: period of large-amplitude (and damped) pendulum swings.

A batch of pendulums released from given angles and angular velocities is
integrated with RK4 until every pendulum has shown two turning points
(libration) or one full revolution (it goes over the top), or the time
window ends (heavily overdamped swings never turn).  The measured period is
compared with the exact undamped large-angle period 4K(k)/w0, where the
complete elliptic integral comes from the arithmetic-geometric mean
(evaluated recursively).  If every swing is small the small-angle formula
is returned without simulating.
"""
import math

import torch
import torch.nn as nn

G = 9.81


class PendulumPeriodFinder(nn.Module):
    def __init__(self):
        super().__init__()
        self.dt = 0.01
        self.t_max = 15.0
        self.small_angle = 0.05
        self.agm_tol = 1e-6
        self.max_agm_depth = 25
        self.model_err_tol = 0.03

    def agm(self, a, b, depth=0):
        if (a - b).abs().max() < self.agm_tol or depth >= self.max_agm_depth:
            return 0.5 * (a + b)
        return self.agm(0.5 * (a + b), torch.sqrt(a * b), depth + 1)

    def exact_period(self, amp, w0):
        k = torch.clamp(torch.sin(0.5 * amp), max=0.9999)
        return 2.0 * math.pi / (w0 * self.agm(torch.ones_like(k), torch.sqrt(1.0 - k * k)))

    def accel(self, th, om, w0sq, c):
        return -w0sq * torch.sin(th) - c * om

    def rk4(self, th, om, w0sq, c):
        h = self.dt
        k1t, k1o = om, self.accel(th, om, w0sq, c)
        k2t, k2o = om + 0.5 * h * k1o, self.accel(th + 0.5 * h * k1t, om + 0.5 * h * k1o, w0sq, c)
        k3t, k3o = om + 0.5 * h * k2o, self.accel(th + 0.5 * h * k2t, om + 0.5 * h * k2o, w0sq, c)
        k4t, k4o = om + h * k3o, self.accel(th + h * k3t, om + h * k3o, w0sq, c)
        th_new = th + h / 6.0 * (k1t + 2 * k2t + 2 * k3t + k4t)
        om_new = om + h / 6.0 * (k1o + 2 * k2o + 2 * k3o + k4o)
        return th_new, om_new

    def forward(self, theta0, omega0, params):
        length, damping = params[0], params[1]
        w0sq = G / length
        w0 = torch.sqrt(w0sq)
        energy = 0.5 * omega0 ** 2 + w0sq * (1.0 - torch.cos(theta0))
        rotating = energy > 2.0 * w0sq
        amp = torch.acos(torch.clamp(1.0 - energy / w0sq, -1.0, 1.0))
        exact = self.exact_period(amp, w0)
        if (amp < self.small_angle).all():
            n = theta0.shape[0]
            return (torch.full((n,), 2.0 * math.pi) / w0, torch.zeros(n, dtype=torch.long), exact)

        th, om = theta0.clone(), omega0.clone()
        first = torch.full_like(theta0, -1.0)
        second = torch.full_like(theta0, -1.0)
        rev = torch.full_like(theta0, -1.0)
        done = torch.zeros_like(rotating)
        t = 0.0
        while not done.all() and t < self.t_max:
            th_new, om_new = self.rk4(th, om, w0sq, damping)
            turned = (om * om_new < 0) & ~rotating
            if turned.any():
                tc = t + self.dt * om / (om - om_new)
                second = torch.where(turned & (first >= 0) & (second < 0), tc, second)
                first = torch.where(turned & (first < 0), tc, first)
            over = rotating & (rev < 0) & ((th_new - theta0).abs() >= 2.0 * math.pi)
            rev = torch.where(over, torch.full_like(rev, t + self.dt), rev)
            done = (second >= 0) | (rev >= 0)
            th, om, t = th_new, om_new, t + self.dt

        periods, codes = [], []
        for i in range(theta0.shape[0]):
            if rotating[i]:
                periods.append(rev[i] if rev[i] >= 0 else torch.tensor(-1.0))
                codes.append(2)
            elif second[i] < 0:
                periods.append(torch.tensor(-1.0))  # overdamped: creeps back, never swings
                codes.append(3)
            else:
                p = 2.0 * (second[i] - first[i])
                rel = (p - exact[i]).abs() / exact[i]
                periods.append(p)
                codes.append(1 if rel > self.model_err_tol else 0)
        return torch.stack(periods), torch.tensor(codes), exact


def model():
    torch.manual_seed(5916)
    return PendulumPeriodFinder().eval()


def make_swings(angles_deg, omegas, length, damping):
    return (torch.tensor(angles_deg) * math.pi / 180.0, torch.tensor(omegas),
            torch.tensor([length, damping]))


def example_inputs():
    # 1 m pendulum, no damping: 10..170 degrees released from rest
    return make_swings([10.0, 45.0, 90.0, 135.0, 170.0], [0.0, 0.0, 0.0, 0.0, 0.0], 1.0, 0.0)


def dynamic_shapes():
    b = torch.export.Dim("swings", min=2, max=8)
    return ({0: b}, {0: b}, None)


def verify_inputs():
    ex = example_inputs()
    # 2 tiny swings: small-angle formula, no simulation
    tiny = make_swings([1.0, 2.0], [0.0, 0.01], 0.5, 0.0)
    # 8 swings on a 2 m pendulum, light damping: kicks send three over the top (one of
    # them, released near the top, does not complete a revolution in the window); the
    # 150 deg swing loses enough amplitude to leave the undamped tolerance
    mixed = make_swings([20.0, 60.0, 100.0, 150.0, 30.0, 0.0, -40.0, 175.0],
                        [0.0, 0.5, -1.0, 0.0, 5.0, 4.9, 0.0, -0.3], 2.0, 0.02)
    # strong damping: periods stretched beyond the tolerance
    damped = make_swings([30.0, 80.0], [0.0, 0.0], 1.0, 2.5)
    # overdamped (c > 2 w0): no turning point within the window
    viscous = make_swings([40.0, 70.0, 120.0], [0.0, 0.0, 0.0], 1.0, 8.0)
    return [ex, tiny, mixed, damped, viscous]
