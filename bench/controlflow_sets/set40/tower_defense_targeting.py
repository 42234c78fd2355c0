"""Tower-defence game server tick: each turret picks a target among the enemies
in range with its own targeting mode (first / strongest / closest), aims with a
learned lead correction, and splash turrets also hit enemies near the impact.
Simulates a few rounds of a wave; leaked enemies cost lives.

Kind X; constructs 1, 2, 3, 6, 7, 9."""
import math

import torch
import torch.nn as nn
from torch.export import Dim


class Turret(nn.Module):
    def __init__(self, pos, reach, damage, mode, splash=0.0):
        super().__init__()
        self.register_buffer("pos", torch.tensor(pos))
        self.reach = reach
        self.damage = damage
        self.mode = mode
        self.splash = splash
        self.lead = nn.Linear(2, 2)

    def forward(self, xy, vel, hp, progress, alive):
        dist = (xy - self.pos).norm(dim=1)
        in_range = (dist < self.reach) & alive
        if not in_range.any():
            return torch.zeros_like(hp)
        if self.mode == "first":
            score = torch.where(in_range, progress, torch.full_like(progress, -1e9))
        elif self.mode == "strongest":
            score = torch.where(in_range, hp, torch.full_like(hp, -1e9))
        else:
            score = torch.where(in_range, -dist, torch.full_like(dist, -1e9))
        target = torch.argmax(score)
        dmg = torch.zeros_like(hp)
        dmg[target] = self.damage
        if self.splash > 0:
            aim = xy[target] + 0.05 * torch.tanh(self.lead(vel[target]))
            near = ((xy - aim).norm(dim=1) < self.splash) & alive
            dmg = dmg + 0.5 * self.damage * near.to(hp.dtype)
        return dmg


class TowerDefense(nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(415)
        self.turrets = nn.ModuleList([
            Turret([2.0, 1.5], 2.5, 3.7, "first"),
            Turret([5.0, 0.4], 2.0, 5.3, "strongest"),
            Turret([7.5, 1.0], 3.0, 2.2, "closest", splash=0.8),
            Turret([9.0, -1.0], 1.8, 4.1, "first"),
        ])
        self.rounds = 5
        self.step = 0.15          # path progress per round at speed 1

    def path(self, progress):
        x = 10.0 * progress
        y = 1.5 * torch.sin(math.pi * progress)
        vx = torch.full_like(progress, 10.0)
        vy = 1.5 * math.pi * torch.cos(math.pi * progress)
        return torch.stack([x, y], 1), torch.stack([vx, vy], 1)

    def forward(self, enemies):
        # enemies: [N, 3] = (progress along the path 0..1, hit points, speed factor)
        progress = enemies[:, 0]
        hp = enemies[:, 1]
        speed = enemies[:, 2]
        leaked = torch.zeros((), dtype=hp.dtype)
        alive = hp > 0
        for rnd in range(self.rounds):
            xy, vel = self.path(progress)
            for turret in self.turrets:
                hp = hp - turret(xy, vel * speed[:, None], hp, progress, alive)
                alive = hp > 0
                if not alive.any():
                    break
            if not alive.any():
                break                     # wave cleared
            progress = progress + self.step * speed * alive.to(hp.dtype)
            escaped = alive & (progress >= 1.0)
            if escaped.any():
                leaked = leaked + escaped.to(hp.dtype).sum()
                hp = torch.where(escaped, torch.zeros_like(hp), hp)
                alive = hp > 0
        return torch.clamp(hp, min=0.0), leaked, progress


def model():
    return TowerDefense().eval()


def _wave(n, seed, hp_lo, hp_hi, spread=0.5):
    g = torch.Generator().manual_seed(seed)
    progress = spread * torch.rand(n, generator=g)
    hp = hp_lo + (hp_hi - hp_lo) * torch.rand(n, generator=g)
    speed = 0.8 + 0.6 * torch.rand(n, generator=g)
    return torch.stack([progress, hp, speed], 1)


def example_inputs():
    return (_wave(8, 1, 5.0, 25.0),)


def dynamic_shapes():
    return ({0: Dim("enemies", min=2, max=48)},)


def verify_inputs():
    return [
        example_inputs(),                                   # mixed wave, some die, some leak
        (_wave(2, 2, 1.0, 3.0, spread=0.05),),              # min wave, weak enemies near spawn: killed, wave cleared early
        (torch.tensor([[0.02, 100.0, 1.0], [0.9, 100.0, 1.4]]),),   # tanks survive all fire; the fast one leaks
        (_wave(48, 15, 10.0, 60.0, spread=0.9),),           # max wave spread along the path
    ]
