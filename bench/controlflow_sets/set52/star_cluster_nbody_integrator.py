"""Small star-cluster N-body integrator: softened direct-sum gravity plus a
learned radial correction for the cluster's gas/dark halo, kick-drift-kick
leapfrog with an acceleration-based adaptive timestep, step rejection when the
force changes too fast (close encounters), and a stop when a star is ejected."""
import torch
import torch.nn as nn
from torch.export import Dim


class ClusterIntegrator(nn.Module):
    def __init__(self):
        super().__init__()
        self.G = 1.0
        self.softening = 0.05
        self.eta = 0.03
        self.dt_max = 0.05
        self.dt_min = 1e-4
        self.max_steps = 200
        self.escape_radius = 6.0
        self.halo = nn.Sequential(nn.Linear(1, 8), nn.Tanh(), nn.Linear(8, 1))

    def accelerations(self, pos, mass):
        diff = pos[None, :, :] - pos[:, None, :]
        r2 = (diff ** 2).sum(-1) + self.softening ** 2
        inv_r3 = r2 ** -1.5 * (1.0 - torch.eye(pos.shape[0]))
        acc = self.G * (diff * (inv_r3 * mass[None, :])[..., None]).sum(1)
        r = pos.norm(dim=1, keepdim=True)
        halo = 0.05 * torch.sigmoid(self.halo(r)) * pos / (r + 1e-3)
        return acc - halo

    def energy(self, pos, vel, mass):
        kinetic = 0.5 * (mass * (vel ** 2).sum(1)).sum()
        diff = pos[None, :, :] - pos[:, None, :]
        r = ((diff ** 2).sum(-1) + self.softening ** 2).sqrt()
        pair = mass[:, None] * mass[None, :] / r * (1.0 - torch.eye(pos.shape[0]))
        return kinetic - 0.5 * self.G * pair.sum()

    def forward(self, pos, vel, mass, t_end):
        # pos, vel: [N, 3]; mass: [N]; t_end: [1]
        t = torch.zeros(())
        acc = self.accelerations(pos, mass)
        shrink = 1.0
        steps, rejected = 0, 0
        while t < t_end[0] and steps + rejected < self.max_steps:
            amag = acc.norm(dim=1).max().clamp(min=1e-6)
            dt = torch.clamp(shrink * self.eta / amag.sqrt(), min=self.dt_min, max=self.dt_max)
            dt = torch.minimum(dt, t_end[0] - t)
            v_half = vel + 0.5 * dt * acc
            new_pos = pos + dt * v_half
            new_acc = self.accelerations(new_pos, mass)
            jump = (new_acc - acc).norm(dim=1).max()
            if jump > 0.5 * amag and dt > self.dt_min:
                shrink = shrink * 0.5  # close encounter: retry the step with half the step size
                rejected += 1
                continue
            shrink = min(1.0, shrink * 1.5)
            vel = v_half + 0.5 * dt * new_acc
            pos, acc = new_pos, new_acc
            t = t + dt
            steps += 1
            if (pos.norm(dim=1) > self.escape_radius).any():
                break  # a star left the cluster; hand over to the escaper bookkeeping
        return pos, vel, self.energy(pos, vel, mass), t, torch.tensor([steps, rejected])


def model():
    torch.manual_seed(5215)
    return ClusterIntegrator().eval()


def _cluster(n, seed, spread=1.0, speed=0.3):
    g = torch.Generator().manual_seed(seed)
    pos = spread * torch.randn(n, 3, generator=g)
    vel = speed * torch.randn(n, 3, generator=g)
    mass = 0.5 + torch.rand(n, generator=g)
    return pos, vel, mass


def example_inputs():
    pos, vel, mass = _cluster(8, 1)
    return pos, vel, mass, torch.tensor([0.5])


def dynamic_shapes():
    n = Dim("stars", min=2, max=24)
    return {0: n}, {0: n}, {0: n}, None


def verify_inputs():
    binary_pos = torch.tensor([[-0.08, 0.0, 0.0], [0.08, 0.0, 0.0]])
    binary_vel = torch.tensor([[0.0, -1.5, 0.0], [0.0, 1.5, 0.0]])
    runaway_pos, runaway_vel, runaway_mass = _cluster(5, 3, 0.5, 0.1)
    runaway_vel[2] = torch.tensor([40.0, 0.0, 0.0])
    big = _cluster(24, 4, 1.5, 0.2)
    flyby_pos = torch.tensor([[0.0, 0.0, 0.0], [-1.0, 0.03, 0.0], [0.0, 2.0, 0.5]])
    flyby_vel = torch.tensor([[0.0, 0.0, 0.0], [8.0, 0.0, 0.0], [0.0, 0.0, 0.0]])
    return [
        example_inputs(),                                                          # reaches t_end normally
        (binary_pos, binary_vel, torch.tensor([1.0, 1.0]), torch.tensor([2.0])),   # min stars: tight binary -> tiny steps, hits the step cap
        (*big, torch.tensor([0.3])),                                               # max stars, reaches t_end
        (runaway_pos, runaway_vel, runaway_mass, torch.tensor([1.0])),             # ejected star -> break
        (flyby_pos, flyby_vel, torch.tensor([1.0, 0.5, 0.8]), torch.tensor([0.3])),  # fast close flyby -> rejected steps (continue)
    ]
