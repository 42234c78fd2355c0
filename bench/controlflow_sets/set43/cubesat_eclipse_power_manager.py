"""Small-satellite electrical power system (EPS) manager over an orbit plan.

Per time step: sun vector in the body frame (zero vector = eclipse) and the
requested load of five subsystems. Solar generation charges the battery; when
state of charge drops below the shed threshold, non-essential subsystems are
switched off lowest-priority first until the power budget balances; below the
safe-mode threshold the spacecraft enters safe mode and the plan is aborted.
Each subsystem module has its own duty-cycle rule.
Constructs: 1, 2, 3, 5, 6, 7, 9
"""
import torch
import torch.nn as nn


class Subsystem(nn.Module):
    def __init__(self, name, essential, peak_w, duty_limit=1.0):
        super().__init__()
        self.name = name
        self.essential = essential
        self.peak_w = peak_w
        self.duty_limit = duty_limit

    def forward(self, requested_w, in_eclipse):
        power = requested_w.clamp(min=0.0)
        if power > self.peak_w:
            power = torch.tensor(self.peak_w)
        if in_eclipse and self.duty_limit < 1.0:
            power = power * self.duty_limit
        return power


class EclipsePowerManager(nn.Module):
    def __init__(self, capacity_wh=40.0, dt_h=0.05, shed_soc=0.4, release_soc=0.55, safe_soc=0.15):
        super().__init__()
        # priority order: most important first
        self.subsystems = nn.ModuleList([
            Subsystem("obc", True, 2.0),
            Subsystem("comms", True, 6.0, duty_limit=0.5),
            Subsystem("adcs", False, 4.0),
            Subsystem("payload", False, 10.0, duty_limit=0.25),
            Subsystem("heater", False, 5.0),
        ])
        self.capacity_wh = capacity_wh
        self.dt_h = dt_h
        self.shed_soc = shed_soc
        self.release_soc = release_soc
        self.safe_soc = safe_soc
        self.register_buffer("panel_normals", torch.tensor([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [-1.0, 0.0, 0.0]]))
        self.panel_w = 12.0

    def generation(self, sun):
        if sun.norm() < 0.5:
            return torch.zeros(()), torch.tensor(True)
        cosines = (self.panel_normals @ (sun / sun.norm())).clamp(min=0.0)
        return self.panel_w * cosines.sum(), torch.tensor(False)

    def forward(self, sun, loads, soc0):
        soc = soc0[0]
        soc_trace = []
        on_time = torch.zeros(len(self.subsystems))
        safe_mode = torch.tensor(0.0)
        shedding = False                    # latched load-shed state
        for t in range(sun.shape[0]):
            gen, eclipse = self.generation(sun[t])
            powers = [sub(loads[t, i], eclipse) for i, sub in enumerate(self.subsystems)]
            enabled = [True] * len(self.subsystems)
            net = gen - torch.stack(powers).sum()
            if soc < self.shed_soc:
                shedding = True
            elif shedding and soc > self.release_soc:
                shedding = False
            if shedding and net < 0:
                for i in range(len(self.subsystems) - 1, -1, -1):
                    if self.subsystems[i].essential:
                        continue
                    enabled[i] = False
                    net = net + powers[i]
                    if net >= 0:
                        break
            soc = (soc + net * self.dt_h / self.capacity_wh).clamp(max=1.0)
            soc_trace.append(soc)
            on_time = on_time + torch.tensor([1.0 if e else 0.0 for e in enabled])
            if soc < self.safe_soc:
                safe_mode = torch.tensor(1.0)
                break
        return torch.stack(soc_trace), on_time, safe_mode


def model():
    return EclipsePowerManager().eval()


def _orbit(n, sunlit_frac, load, seed=0):
    g = torch.Generator().manual_seed(seed)
    sun = torch.zeros(n, 3)
    k = int(n * sunlit_frac)
    ang = torch.linspace(0.2, 2.9, k)
    sun[:k, 0] = torch.cos(ang)
    sun[:k, 1] = torch.sin(ang)
    loads = torch.tensor(load).repeat(n, 1) + 0.2 * torch.rand(n, 5, generator=g)
    return sun, loads


def example_inputs():
    sun, loads = _orbit(60, 0.6, [1.5, 3.0, 2.0, 4.0, 1.0])
    return (sun, loads, torch.tensor([0.8]))


def dynamic_shapes():
    t = torch.export.Dim("steps", min=2, max=256)
    return ({0: t}, {0: t}, None)


def verify_inputs():
    sun_e, loads_e = _orbit(60, 0.6, [1.5, 4.0, 3.0, 8.0, 2.0])
    sun_d, loads_d = _orbit(40, 0.0, [1.5, 5.0, 3.5, 9.0, 4.5], seed=1)
    sun_l, loads_l = _orbit(20, 1.0, [1.0, 1.0, 1.0, 1.0, 1.0], seed=2)
    sun_h, loads_h = _orbit(30, 0.5, [1.8, 12.0, 3.0, 30.0, 2.0], seed=3)
    return [
        example_inputs(),                         # light loads, sunlit then eclipse from 80%: never below 40%, no shedding
        (sun_e, loads_e, torch.tensor([0.41])),   # drops under 40% in sunlight: shed heater/payload until net >= 0 (break),
                                                  # recharges above 55% (latch released), sheds everything again in eclipse
        (sun_d, loads_d, torch.tensor([0.32])),   # full eclipse from low SoC: shed all non-essential, still negative -> safe mode
        (sun_l, loads_l, torch.tensor([0.95])),   # always sunlit, light load: battery saturates at 100%
        (sun_h, loads_h, torch.tensor([0.8])),    # requests above peak power are clipped
    ]
