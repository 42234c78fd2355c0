"""Spacecraft reaction-wheel momentum management with magnetorquers.

Environmental torques are absorbed by the reaction wheels, whose stored
momentum grows.  Above a high-water mark the on-board software starts
momentum dumping with the cross-product law m = k (h x B) / |B|^2 (dipole
saturated at the torquer limit) and keeps dumping until the momentum falls
below a low-water mark (hysteresis).  Where the geomagnetic field is too weak
the torquers are useless and the step is skipped.  If the wheels ever reach
saturation the spacecraft drops to safe mode.

KIND X.  Constructs: 1 (if/elif on norms and tensor predicates), 2 (early
return into safe mode; dipole reassigned in one branch of the helper),
3 (and/not mixing a Python mode flag with tensor predicates), 5 (for over the
dynamic number of time steps, list.append + torch.stack), 6 (continue on
tensor conditions), 7 (helper with its own saturation branch).
"""
import torch
import torch.nn as nn
from torch.export import Dim

KIND = "X"
CONSTRUCTS = (1, 2, 3, 5, 6, 7)


class MomentumDumper(nn.Module):
    def __init__(self, dt=20.0, gain=5e-3, m_max=40.0, h_high=0.5, h_low=0.2, h_safe=1.0,
                 b_min=1e-5):
        super().__init__()
        self.dt = dt
        self.gain = gain
        self.m_max = m_max
        self.h_high = h_high
        self.h_low = h_low
        self.h_safe = h_safe
        self.b_min = b_min

    def _dipole(self, h, b):
        m = self.gain * torch.linalg.cross(h, b) / (b * b).sum()
        peak = m.abs().max()
        if peak > self.m_max:
            m = m * (self.m_max / peak)  # torquer current limit, keep direction
        return m

    def forward(self, disturbance, b_field, h0):
        # disturbance: (T, 3) N*m body torques; b_field: (T, 3) tesla in body frame;
        # h0: (3,) initial wheel momentum N*m*s
        h = h0.clone()
        dumping = False
        dipoles = []
        for t in range(disturbance.shape[0]):
            h = h + disturbance[t] * self.dt
            h_norm = h.norm()
            if h_norm > self.h_safe:
                # wheels saturated: attitude control lost, safe mode
                return h, torch.stack(dipoles + [torch.zeros(3)]), torch.tensor(True)
            if not dumping and h_norm > self.h_high:
                dumping = True
            elif dumping and h_norm < self.h_low:
                dumping = False
            if not dumping:
                dipoles.append(torch.zeros(3))
                continue
            b = b_field[t]
            if b.norm() < self.b_min:
                dipoles.append(torch.zeros(3))
                continue  # weak-field region (e.g. South Atlantic side of the orbit)
            m = self._dipole(h, b)
            h = h + torch.linalg.cross(m, b) * self.dt
            dipoles.append(m)
        return h, torch.stack(dipoles), torch.tensor(False)


def model():
    torch.manual_seed(61016)
    return MomentumDumper().eval()


def make_orbit(n, torque=(2e-4, 1e-4, -5e-5), weak=None, b_scale=3e-5):
    t = torch.arange(n, dtype=torch.float32)
    w = 2 * torch.pi / 60.0
    b = b_scale * torch.stack([torch.cos(w * t), 0.6 * torch.sin(w * t), 0.8 * torch.sin(w * t + 1.0)], dim=1)
    if weak is not None:
        b[weak[0]:weak[1]] *= 0.2
    dist = torch.tensor(torque).expand(n, 3).clone()
    return dist, b


def example_inputs():
    # momentum builds up past 0.5, dumping (unsaturated and saturated dipole)
    # brings it under 0.2, then no dumping until the end
    dist, b = make_orbit(120)
    return (dist, b, torch.tensor([0.3, 0.2, 0.1]))


def dynamic_shapes():
    t = Dim("steps", min=2, max=2000)
    return ({0: t}, {0: t}, None)


def verify_inputs():
    d1, b1 = make_orbit(80, weak=(30, 40))
    d2, b2 = make_orbit(30, torque=(1.5e-3, 1e-3, 0.0))
    d3, b3 = make_orbit(10)
    return [
        # dump cycle with hysteresis: start, continue, stop
        example_inputs(),
        # dumping interrupted by a weak-field stretch (steps 30-39 skipped)
        (d1, b1, torch.tensor([0.38, 0.28, 0.1])),
        # huge disturbance: wheels pass 1.0 N*m*s -> safe mode early return
        (d2, b2, torch.tensor([0.4, 0.3, 0.0])),
        # quiet short pass: never reaches the high-water mark, no dumping at all
        (d3, b3, torch.tensor([0.05, 0.0, 0.02])),
    ]
