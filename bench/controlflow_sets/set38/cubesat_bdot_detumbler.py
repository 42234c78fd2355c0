"""CubeSat attitude control after deployment: B-dot magnetorquer detumbling against a
recorded magnetometer sequence (with dropouts), then a short spin-up about the z axis.

Kind X. Constructs: 1 2 3 4 5 6 7
"""
import torch
import torch.nn as nn


class BdotDetumbler(nn.Module):
    def __init__(self):
        super().__init__()
        self.k_gain = 0.6           # B-dot gain (per normalised field)
        self.m_max = 1.0            # magnetorquer dipole saturation (normalised)
        self.dt = 1.0
        self.register_buffer("inv_inertia", torch.tensor([1.0, 1.2, 0.8]))
        self.detumble_rate = 1.0    # deg/s
        self.max_steps = 60
        self.target_spin = 3.0      # deg/s about z after detumbling
        self.spin_tol = 0.1

    def saturate(self, m):
        mn = m.norm()
        if mn > self.m_max:
            m = m * (self.m_max / mn)
        return m

    def spin_up(self, omega, field):
        for k in range(field.shape[0]):
            err = self.target_spin - omega[2]
            if err.abs() < self.spin_tol:
                break
            kick = torch.clamp(0.5 * err, -0.5, 0.5)
            omega = omega + torch.stack([torch.zeros(()), torch.zeros(()), kick])
        return omega

    def forward(self, omega0, field):
        T = field.shape[0]
        omega = omega0.clamp(-60.0, 60.0)     # gyro range, deg/s
        step = 0
        while omega.norm() > self.detumble_rate and step < self.max_steps:
            b = field[step % T]
            step += 1
            bn = b.norm()
            if bn < 1e-3:
                continue            # magnetometer dropout: skip actuation this cycle
            b = b / bn
            m = self.saturate(self.k_gain * torch.linalg.cross(omega, b))
            torque = torch.linalg.cross(m, b)
            omega = omega + self.dt * torque * self.inv_inertia
        if omega.norm() > self.detumble_rate:
            # still tumbling after the time budget: report failure, no spin-up
            return omega, torch.tensor(step), torch.zeros(())
        omega = self.spin_up(omega, field)
        return omega, torch.tensor(step), torch.ones(())


def model():
    torch.manual_seed(15)
    return BdotDetumbler().eval()


def _make_field(T, seed, dropouts=()):
    """Field direction rotating along the orbit (dipole-ish), magnitude ~ 0.3-0.6 (normalised units)."""
    g = torch.Generator().manual_seed(seed)
    ang = torch.arange(T, dtype=torch.float32) * (2 * torch.pi / 24.0)
    b = torch.stack([torch.cos(ang), 0.5 * torch.sin(2 * ang), torch.sin(ang)], 1) * 0.45
    b = b + 0.02 * torch.randn(T, 3, generator=g)
    for i in dropouts:
        b[i] = 0.0
    return b


def example_inputs():
    return (torch.tensor([8.6, -5.7, 4.6]), _make_field(48, 0, dropouts=(3, 10)))


def dynamic_shapes():
    return (None, {0: torch.export.Dim("samples", min=4, max=200)})


def verify_inputs():
    return [
        example_inputs(),                                          # tumbling: detumbles with dropouts, spin-up loop
        (torch.tensor([0.3, 0.2, 0.0]), _make_field(4, 1)),
        # ^ already quiet: while runs 0 times; spin-up runs through all 4 samples without converging
        (torch.tensor([50.0, 45.0, -50.0]), _make_field(24, 2)),   # fast tumble: saturated torquers, hits max_steps
        (torch.tensor([1.1, 0.6, 0.9]), _make_field(100, 3)),     # slow tumble: few unsaturated steps, spin-up converges
        (torch.tensor([0.0, 0.7, 0.75]), _make_field(12, 5)),     # just above the limit, perpendicular to B: one step
        (torch.tensor([0.0, 0.0, 0.8]), _make_field(8, 4)),        # slow z spin only: no detumbling needed, spin-up converges
    ]
