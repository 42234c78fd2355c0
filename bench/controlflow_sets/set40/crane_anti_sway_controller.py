"""Overhead gantry crane: track a trolley position profile with a PD controller
plus anti-sway feedback on the rope swing rate, optional zero-vibration input
shaping of the set-point, and a settling phase before the load is lowered.

Kind T; constructs 1, 2, 3, 4, 5, 9."""
import torch
import torch.nn as nn
from torch.export import Dim


class CraneAntiSway(nn.Module):
    def __init__(self):
        super().__init__()
        self.g = 9.81
        self.rope = 5.0           # m
        self.dt = 0.1             # s
        self.kp, self.kd, self.ks = 0.6, 1.4, 2.0
        self.a_max = 0.8          # m/s2
        self.sway_limit = 0.06    # rad
        self.settle_tol = 0.01
        self.max_settle = 300
        self.input_shaping = True
        # zero-vibration shaper: average the set-point with a copy delayed by half a swing period
        period = 2 * 3.14159265 * (self.rope / self.g) ** 0.5
        self.shaper_delay = int(round(period / 2 / self.dt))

    def step(self, x, v, th, om, a):
        v = v + a * self.dt
        x = x + v * self.dt
        om = om + (-(self.g / self.rope) * th - a / self.rope) * self.dt
        th = th + om * self.dt
        return x, v, th, om

    def forward(self, ref, state0):
        # ref: [T] trolley position set-points (m), state0: [4] (x, v, theta, omega)
        x, v, th, om = state0.unbind(0)
        hist = []
        for t in range(ref.shape[0]):
            if self.input_shaping and t >= self.shaper_delay:
                target = 0.5 * (ref[t] + ref[t - self.shaper_delay])
            else:
                target = ref[t]
            a = self.kp * (target - x) - self.kd * v + self.ks * om
            a = torch.clamp(a, -self.a_max, self.a_max)
            if th.abs() > self.sway_limit:
                # large swing: stop pushing the trolley, only damp the load
                a = 0.2 * a + self.ks * om
            x, v, th, om = self.step(x, v, th, om, a)
            hist.append(torch.stack([x, v, th]))

        # hold position over the final set-point until the load has stopped swinging
        n_settle = 0
        while (th.abs() > self.settle_tol or v.abs() > self.settle_tol) and n_settle < self.max_settle:
            a = self.kp * (ref[-1] - x) - self.kd * v + self.ks * om
            x, v, th, om = self.step(x, v, th, om, torch.clamp(a, -self.a_max, self.a_max))
            n_settle += 1
        settle_time = torch.full_like(x, n_settle * self.dt)
        return torch.stack(hist), torch.stack([x, th, settle_time])


def model():
    return CraneAntiSway().eval()


def _move(T, dist):
    t = torch.arange(T, dtype=torch.float32)
    return dist * torch.clamp(t / (0.5 * T), max=1.0)


def example_inputs():
    return (_move(60, 4.0), torch.zeros(4))


def dynamic_shapes():
    return ({0: Dim("steps", min=2, max=160)}, None)


def verify_inputs():
    return [
        example_inputs(),                                        # 4 m ramp move, swing stays small, settles afterwards
        (torch.zeros(2), torch.zeros(4)),                        # min length, crane at rest: nothing to settle (while runs 0 times)
        (torch.full((40,), 6.0), torch.zeros(4)),                # step set-point: big swing, sway limiter engages
        (_move(160, 10.0), torch.tensor([0.0, 0.0, 0.1, 0.0])),  # max length, starts with the load swinging
        (torch.zeros(3), torch.tensor([0.0, 0.0, 0.0, 0.05])),   # short, rope swinging slowly: settle loop only
    ]
