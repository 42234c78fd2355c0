"""Underwater-glider dive planner (oceanography) (kind X).

Inputs: a density profile sigma-t (Z,) and horizontal current speed (Z,) on 5 m layers,
plus the mission (3,) = (target depth m, battery Wh, seabed depth m).  The planner
simulates one dive cycle: the target is clipped above the seabed, the descent loop runs
while above the target with battery above reserve (it aborts in a strong current layer
below the safe depth), an exhausted battery returns an emergency result at once,
otherwise the buoyancy pump is run and the ascent loop climbs back to the surface.  Glide
speed per layer comes from a learned hydrodynamic submodule that slows down in sharp
pycnoclines.

constructs: 1 (if on tensors), 2 (early return; variable reassigned in one branch),
            3 (and / not on tensor predicates), 4 (two while loops with tensor conditions and
            loop-carried tensor state), 6 (break on tensor condition), 7 (helper + submodule
            with control flow), 5 (list of depths + torch.stack)
"""
import torch
import torch.nn as nn


def layer_index(depth, dz, n_layers):
    k = int(depth // dz)
    return min(k, n_layers - 1)


class GlideSpeed(nn.Module):
    def __init__(self, base_speed=0.2, pycnocline=0.05):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(3, 12), nn.Tanh(), nn.Linear(12, 1))
        self.base_speed = base_speed
        self.pycnocline = pycnocline

    def forward(self, density, k, depth):
        grad = (density[min(k + 1, density.shape[0] - 1)] - density[k]).abs() / 5.0
        feats = torch.stack([density[k] - 25.0, grad * 10.0, depth / 100.0])
        speed = self.base_speed * (1.0 + 0.2 * torch.tanh(self.mlp(feats)).squeeze())
        if grad > self.pycnocline:
            speed = 0.7 * speed
        return speed


class GliderDivePlanner(nn.Module):
    def __init__(self, dz=5.0, dt=60.0, reserve_wh=2.0, step_wh=0.05, pump_wh=0.5,
                 max_current=0.6, safe_abort_depth=20.0, bottom_margin=10.0):
        super().__init__()
        self.glide = GlideSpeed()
        self.dz = dz
        self.dt = dt
        self.reserve_wh = reserve_wh
        self.step_wh = step_wh
        self.pump_wh = pump_wh
        self.max_current = max_current
        self.safe_abort_depth = safe_abort_depth
        self.bottom_margin = bottom_margin

    def forward(self, density, current, mission):
        n = density.shape[0]
        target, battery, seabed = mission[0], mission[1], mission[2]
        if target > seabed - self.bottom_margin:
            target = seabed - self.bottom_margin

        depth = torch.zeros(())
        drift = torch.zeros(())
        descent = []
        while depth < target and not battery < self.reserve_wh:
            k = layer_index(depth, self.dz, n)
            if current[k] > self.max_current and depth > self.safe_abort_depth:
                break
            depth = depth + self.glide(density, k, depth) * self.dt
            drift = drift + current[k] * self.dt
            battery = battery - self.step_wh
            descent.append(depth)

        if battery < self.reserve_wh:
            # not enough energy to pump: drop the emergency weight where we are
            return depth, drift, battery, torch.full((1,), -1.0)

        max_depth = depth
        battery = battery - self.pump_wh * (1.0 + depth / 500.0)
        while depth > 0:
            k = layer_index(depth, self.dz, n)
            depth = torch.clamp(depth - self.glide(density, k, depth) * self.dt, min=0.0)
            drift = drift + current[k] * self.dt
            battery = battery - self.step_wh
        return max_depth, drift, battery, torch.stack(descent)


def model():
    torch.manual_seed(319)
    return GliderDivePlanner().eval()


def _ocean(n_layers, mission, pycnocline_at=None, jet=None):
    z = torch.arange(n_layers, dtype=torch.float32) * 5.0
    density = 24.0 + 0.004 * z
    if pycnocline_at is not None:
        density = density + 1.5 * (z >= pycnocline_at).float()
    current = 0.1 + 0.0005 * z
    if jet is not None:
        top, bottom, speed = jet
        current[(z >= top) & (z < bottom)] = speed
    return density, current, torch.tensor(mission, dtype=torch.float32)


def example_inputs():
    return _ocean(60, [200.0, 40.0, 280.0], pycnocline_at=60.0)


def dynamic_shapes():
    Z = torch.export.Dim("layers", min=8, max=400)
    return ({0: Z}, {0: Z}, None)


def verify_inputs():
    return [
        example_inputs(),                                 # many descent steps through a pycnocline, target reached, many ascent steps
        _ocean(30, [300.0, 40.0, 120.0]),                 # target below seabed: clipped to 110 m
        _ocean(40, [150.0, 40.0, 190.0], jet=(50.0, 80.0, 0.9)),   # strong current jet at 50-80 m: descent aborted (break)
        _ocean(40, [150.0, 40.0, 190.0], jet=(0.0, 15.0, 0.9)),    # strong current only above the safe depth: no abort
        _ocean(20, [10.0, 40.0, 90.0]),                   # shallow target: descent and ascent run once each
        _ocean(20, [80.0, 1.5, 90.0]),                    # battery below reserve: descent runs 0 times, emergency return
        _ocean(60, [250.0, 2.33, 280.0]),                  # battery runs out mid-descent: emergency return
    ]
