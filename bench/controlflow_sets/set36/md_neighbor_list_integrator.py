"""Molecular dynamics: Lennard-Jones + learned pair correction, relaxation then velocity-Verlet with a
Verlet neighbour list that is rebuilt when atoms moved more than half the skin, plus a thermostat.

Kind X. Constructs: 1, 2, 3, 4, 5, 7.
"""
import torch
import torch.nn as nn


class NeighborListMD(nn.Module):
    def __init__(self, cutoff=2.5, skin=0.3, dt=0.005, ftol=5.0, max_relax=10,
                 relax_step=5e-4, t_target=1.0):
        super().__init__()
        self.cutoff = cutoff
        self.skin = skin
        self.dt = dt
        self.ftol = ftol
        self.max_relax = max_relax
        self.relax_step = relax_step
        self.t_target = t_target
        # learned short-range correction to the LJ pair force (ML potential residual)
        self.pair_net = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 1))

    def _neighbors(self, pos):
        d = torch.cdist(pos, pos)
        eye = torch.eye(pos.shape[0], dtype=torch.bool)
        return (d < self.cutoff + self.skin) & ~eye

    def _forces(self, pos, nbr):
        if not nbr.any():
            # dilute gas: nobody within the list radius
            return torch.zeros_like(pos)
        diff = pos[:, None, :] - pos[None, :, :]
        r = diff.norm(dim=-1).clamp(min=0.8)
        inv6 = r ** -6
        mag = 24.0 * (2.0 * inv6 * inv6 - inv6) / r
        mag = mag + 0.1 * torch.tanh(self.pair_net(r[..., None])).squeeze(-1)
        mag = torch.where(nbr & (r < self.cutoff), mag, torch.zeros_like(mag))
        f = ((mag / r)[..., None] * diff).sum(1)
        return f.clamp(-50.0, 50.0)

    def forward(self, pos, vel, n_steps):
        # n_steps: how many MD steps the caller wants (0 = relax only)
        nbr = self._neighbors(pos)
        f = self._forces(pos, nbr)
        # steepest-descent relaxation of overlapping atoms before any dynamics
        it = torch.zeros((), dtype=pos.dtype)
        while f.abs().max() > self.ftol and it < self.max_relax:
            pos = pos + self.relax_step * f
            f = self._forces(pos, nbr)
            it = it + 1

        ref = pos.clone()
        nbr = self._neighbors(pos)
        rebuilds = torch.zeros((), dtype=pos.dtype)
        for _ in range(int(n_steps.item())):
            vel = vel + 0.5 * self.dt * f
            pos = pos + self.dt * vel
            if (pos - ref).norm(dim=1).max() > 0.5 * self.skin:
                nbr = self._neighbors(pos)
                ref = pos.clone()
                rebuilds = rebuilds + 1
            f = self._forces(pos, nbr)
            vel = vel + 0.5 * self.dt * f
            kinetic = 0.5 * (vel ** 2).sum(1).mean()
            if kinetic > 2.25 * self.t_target:
                # overheating: rescale velocities back towards the target temperature
                vel = vel * torch.sqrt(1.5 * self.t_target / kinetic)
        return pos, vel, torch.stack([it, rebuilds])


def model():
    torch.manual_seed(36015)
    return NeighborListMD().eval()


def _lattice(seed, n_side, spacing, vel_scale, jitter=0.02):
    g = torch.Generator().manual_seed(seed)
    idx = torch.arange(n_side, dtype=torch.float32)
    grid = torch.stack(torch.meshgrid(idx, idx, idx, indexing="ij"), -1).reshape(-1, 3) * spacing
    pos = grid + jitter * torch.randn(grid.shape, generator=g)
    vel = vel_scale * torch.randn(grid.shape, generator=g)
    return pos, vel


def example_inputs():
    # 8 atoms near the LJ minimum spacing, cool: no relaxation, no rebuild
    return _lattice(1, 2, 1.12, 0.3) + (torch.tensor(8),)


def dynamic_shapes():
    atoms = torch.export.Dim("atoms", min=2, max=512)
    return ({0: atoms}, {0: atoms}, None)


def verify_inputs():
    return [
        example_inputs(),                                        # relax loop 0x; 8 MD steps, no rebuild, no thermostat
        _lattice(2, 2, 0.95, 0.3) + (torch.tensor(8),),          # overlapping atoms -> relaxation converges in 7 steps
        _lattice(4, 2, 0.7, 0.3) + (torch.tensor(0),),           # relaxation stops at max_relax; relax only (MD loop 0x)
        _lattice(3, 2, 4.0, 6.0) + (torch.tensor(8),),           # dilute hot gas: no neighbours, one rebuild, thermostat
        (torch.tensor([[0.0, 0.0, 0.0], [1.3, 0.0, 0.0]]),
         torch.tensor([[0.0, 0.0, 0.0], [0.0, 0.1, 0.0]]),
         torch.tensor(1)),                                       # a single pair, one MD step
    ]
