"""Charged particles in a magnetic-mirror (bottle) field, Boris pusher with adaptive step.
Fate: 0 still confined at the horizon, 1 lost through a mirror end (loss cone),
2 hit the wall, 3 counted as trapped after max_bounces reflections. Normalised units, q/m=1."""
import torch
import torch.nn as nn
from torch.export import Dim


def mirror_field(x, b0, length):
    """Paraxial bottle field, divergence-free: Bz = B0 (1 + z^2/L^2), Br from div B = 0."""
    z = x[2]
    return b0 * torch.stack([-x[0] * z / length ** 2, -x[1] * z / length ** 2,
                             1.0 + (z / length) ** 2])


def boris_rotate(v, b, dt):
    t = 0.5 * dt * b
    s = 2.0 * t / (1.0 + (t * t).sum())
    v_prime = v + torch.linalg.cross(v, t)
    return v + torch.linalg.cross(v_prime, s)


class MirrorTracer(nn.Module):
    def __init__(self, b0=1.0, length=2.0, z_end=4.0, r_wall=1.5, t_end=60.0, max_bounces=4):
        super().__init__()
        self.b0, self.length, self.z_end, self.r_wall = b0, length, z_end, r_wall
        self.t_end, self.max_bounces = t_end, max_bounces
        self.dt0, self.max_phase = 0.5, 0.3
        # learned weak pitch-angle scattering (collisions with the background plasma)
        self.scatter = nn.Linear(3, 3)

    def forward(self, particles):
        # particles (P, 6): position xyz, velocity xyz
        fates, bounces_out, times = [], [], []
        for p in range(particles.shape[0]):
            x, v = particles[p, :3], particles[p, 3:]
            speed = v.norm()
            t, bounces, fate = torch.zeros(()), 0, 0
            vz_prev = v[2]
            while t < self.t_end:
                b = mirror_field(x, self.b0, self.length)
                dt = torch.tensor(self.dt0)
                while b.norm() * dt > self.max_phase:  # keep the gyro-phase step small
                    dt = dt / 2.0
                v = boris_rotate(v, b, dt)
                v = v + 0.01 * torch.tanh(self.scatter(v / speed)) * speed
                v = v * (speed / v.norm())  # collisions scatter direction, not energy
                x, t = x + v * dt, t + dt
                if x[2].abs() > self.z_end:
                    fate = 1
                    break
                if x[:2].norm() > self.r_wall:
                    fate = 2
                    break
                if v[2] * vz_prev < 0:
                    bounces += 1  # reflected by the mirror force
                    if bounces >= self.max_bounces:
                        fate = 3
                        break
                vz_prev = v[2]
            fates.append(torch.tensor(fate))
            bounces_out.append(torch.tensor(bounces))
            times.append(t)
        return torch.stack(fates), torch.stack(bounces_out), torch.stack(times)


def model():
    torch.manual_seed(6017)
    return MirrorTracer().eval()


def _particles(*rows):
    return (torch.tensor(rows, dtype=torch.float32),)


TRAPPED = [0.1, 0.0, 0.0, 0.0, 0.6, 0.5]     # pitch ~50 deg: outside the loss cone
LOSS_CONE = [0.1, 0.0, 0.0, 0.0, 0.2, 1.0]   # pitch ~11 deg: streams out of the end
WALL = [0.3, 0.0, 0.0, 0.0, 1.4, 0.2]        # large Larmor radius: hits the wall
DEEP = [0.05, 0.0, 0.0, 0.0, 0.05, 0.05]     # slow (cold) particle: bounce longer than horizon


def example_inputs():
    return _particles(TRAPPED, LOSS_CONE, WALL)


def dynamic_shapes():
    return ({0: Dim("particles", min=2, max=6)},)


def verify_inputs():
    return [
        _particles(TRAPPED, LOSS_CONE, WALL),                 # example: trapped, lost, wall
        _particles(DEEP, LOSS_CONE),                          # min particles: horizon reached
        _particles(TRAPPED, LOSS_CONE, WALL, DEEP,
                   [0.0, 0.1, 0.5, 0.5, 0.0, -0.6], [0.0, -0.1, -1.0, 0.0, 0.3, 0.9]),  # max
    ]
