"""One step of a 2-D hard-disc particle simulation.

Positions are advanced with a learned drift field, then every pair of
overlapping discs is resolved (positional push-apart plus an elastic velocity
exchange along the contact normal), and particles leaving the box bounce off
its walls.  Crowded scenes (many particles) use extra velocity damping.
Returns the new positions and velocities and the number of contacts.
"""
import torch
import torch.nn as nn


class DriftField(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, hidden), nn.Tanh(), nn.Linear(hidden, 2))

    def forward(self, pos):
        return 0.1 * self.net(pos)


class ParticleCollisionStep(nn.Module):
    def __init__(self, radius=0.25, box=2.0, dt=0.1, crowded=8, damping=0.9):
        super().__init__()
        self.radius = radius
        self.box = box
        self.dt = dt
        self.crowded = crowded
        self.damping = damping
        self.drift = DriftField()

    def forward(self, pos, vel):
        vel = vel + self.drift(pos)
        pos = pos + self.dt * vel
        n = pos.shape[0]
        contacts = 0
        for i in range(n):
            for j in range(i + 1, n):
                delta = pos[j] - pos[i]
                dist = delta.norm()
                if dist > 2 * self.radius:
                    continue
                normal = delta / dist.clamp(min=1e-6)
                overlap = 2 * self.radius - dist
                pos = pos.index_add(0, torch.tensor([i, j]),
                                    torch.stack([-0.5 * overlap * normal, 0.5 * overlap * normal]))
                rel = ((vel[j] - vel[i]) * normal).sum()
                if rel < 0:  # approaching: exchange normal velocity components
                    impulse = rel * normal
                    vel = vel.index_add(0, torch.tensor([i, j]), torch.stack([impulse, -impulse]))
                contacts += 1
        out_of_box = pos.abs() > self.box
        if out_of_box.any():
            pos = torch.where(out_of_box, torch.sign(pos) * 2 * self.box - pos, pos)
            vel = torch.where(out_of_box, -vel, vel)
        if n > self.crowded:
            vel = vel * self.damping
        return pos, vel, torch.tensor(contacts)


def model():
    torch.manual_seed(0)
    return ParticleCollisionStep().eval()


def example_inputs():
    g = torch.Generator().manual_seed(0)
    return (torch.rand(5, 2, generator=g) * 3 - 1.5, torch.randn(5, 2, generator=g) * 0.5)


def dynamic_shapes():
    n = torch.export.Dim("n_particles", min=2, max=24)
    return ({0: n}, {0: n})


def verify_inputs():
    return [
        # two separated particles, no contact, inside the box
        (torch.tensor([[-1.0, 0.0], [1.0, 0.0]]), torch.tensor([[0.1, 0.0], [-0.1, 0.0]])),
        # head-on collision of two discs
        (torch.tensor([[-0.2, 0.0], [0.2, 0.0]]), torch.tensor([[1.0, 0.0], [-1.0, 0.0]])),
        # overlapping but separating discs + one escaping through the wall
        (torch.tensor([[0.0, 0.0], [0.3, 0.1], [1.95, 0.5]]),
         torch.tensor([[-0.2, 0.0], [0.2, 0.04], [1.0, 0.0]])),
        # crowded grid with a few contacts
        (torch.stack(torch.meshgrid(torch.linspace(-1.5, 1.5, 4), torch.linspace(-1.2, 1.2, 3),
                                    indexing="ij"), -1).reshape(-1, 2)
         + torch.tensor([[0.0, 0.0]] * 3 + [[0.65, 0.05]] + [[0.0, 0.0]] * 8),
         torch.zeros(12, 2)),
    ]
