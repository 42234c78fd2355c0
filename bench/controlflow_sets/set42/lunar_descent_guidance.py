"""Lunar lander powered-descent guidance with hazard-avoiding site selection.

The descent is simulated at 1 s steps from the start of powered descent until
touchdown. Guidance runs a phase state machine with one controller per phase
(braking, approach, terminal; each a PD law with a learned correction). On
entering the approach phase the lander scans the hazard map (one roughness
value per 50 m cell along track) outwards from the cell below it for the
nearest safe cell; if there is none it aborts to orbit. Running out of
propellant ends the descent. Returns the altitude profile, an outcome code
(0 landed, 1 hard/off-target landing, 2 out of fuel, 3 abort) and the final
state (altitude, vertical speed, downrange, horizontal speed, fuel).

Kind: X. Constructs: 1, 2, 3, 4, 6, 7, 9.
"""
import torch
from torch import nn
from torch.export import Dim

LANDED, HARD_LANDING, OUT_OF_FUEL, ABORT = 0, 1, 2, 3
G_MOON = 1.62
CELL_M = 50.0


class PhaseController(nn.Module):
    """PD tracking of a vertical-speed target plus a small learned correction."""

    def __init__(self, kv, kx):
        super().__init__()
        self.kv, self.kx = kv, kx
        self.correction = nn.Sequential(nn.Linear(5, 16), nn.Tanh(), nn.Linear(16, 2))

    def forward(self, state, vz_target, x_target):
        alt, vz, x, vx = state[0], state[1], state[2], state[3]
        feats = torch.stack([alt / 1000.0, vz / 20.0, (x_target - x) / 500.0, vx / 20.0, vz_target / 20.0])
        corr = 0.05 * torch.tanh(self.correction(feats))
        az = G_MOON + self.kv * (vz_target - vz) + corr[0]
        ax = self.kx * (x_target - x) - 2.0 * (self.kx ** 0.5) * vx + corr[1]
        return az, ax


class TerminalController(PhaseController):
    def forward(self, state, vz_target, x_target):
        az, ax = super().forward(state, vz_target, x_target)
        if state[1] < -3.0:
            az = torch.full_like(az, 2.5 * G_MOON)  # sinking too fast: full throttle
        return az, ax


def find_safe_site(hazard, start_cell, threshold):
    """Nearest cell (searching outwards from start_cell) whose hazard is below threshold, else -1."""
    n = hazard.shape[0]
    for offset in range(n):
        for cell in (start_cell + offset, start_cell - offset):
            if cell < 0 or cell >= n:
                continue
            if hazard[cell] < threshold:
                return cell
    return -1


class DescentGuidance(nn.Module):
    def __init__(self, approach_alt=500.0, terminal_alt=50.0, max_steps=400, hazard_threshold=0.3,
                 isp_factor=0.8):
        super().__init__()
        self.controllers = nn.ModuleDict({
            "braking": PhaseController(kv=0.3, kx=0.0),
            "approach": PhaseController(kv=0.5, kx=0.004),
            "terminal": TerminalController(kv=0.8, kx=0.01),
        })
        self.approach_alt = approach_alt
        self.terminal_alt = terminal_alt
        self.max_steps = max_steps
        self.hazard_threshold = hazard_threshold
        self.isp_factor = isp_factor

    def forward(self, state0, hazard):
        state = state0[:4].clone()
        fuel = state0[4].clone()
        site_x = state[2].clone()
        site_chosen = False
        altitudes = [state[0]]
        status = -1
        step = 0
        while state[0] > 0 and step < self.max_steps:
            if fuel <= 0:
                status = OUT_OF_FUEL
                break
            if state[0] > self.approach_alt:
                az, ax = self.controllers["braking"](state, torch.tensor(-25.0), site_x)
            elif state[0] > self.terminal_alt:
                if not site_chosen:
                    cell = int(torch.clamp(state[2] / CELL_M, 0, hazard.shape[0] - 1))
                    cell = find_safe_site(hazard, cell, self.hazard_threshold)
                    if cell < 0:
                        final = torch.cat([state, fuel.reshape(1)])
                        return torch.stack(altitudes), torch.tensor(ABORT), final
                    site_x = torch.tensor((cell + 0.5) * CELL_M)
                    site_chosen = True
                az, ax = self.controllers["approach"](state, -state[0] / 20.0, site_x)
            else:
                az, ax = self.controllers["terminal"](state, torch.tensor(-1.5), site_x)
            az = az.clamp(0.0, 2.5 * G_MOON)
            ax = ax.clamp(-1.0, 1.0)
            vz = state[1] + (az - G_MOON)
            vx = state[3] + ax
            state = torch.stack([state[0] + 0.5 * (state[1] + vz), vz, state[2] + 0.5 * (state[3] + vx), vx])
            fuel = fuel - self.isp_factor * (az.abs() + ax.abs())
            altitudes.append(state[0])
            step += 1
        if status < 0:
            on_target = (state[2] - site_x).abs() < 30.0
            status = LANDED if state[1].abs() < 3.0 and on_target else HARD_LANDING
        final = torch.cat([state, fuel.reshape(1)])
        return torch.stack(altitudes), torch.tensor(status), final


def model():
    torch.manual_seed(4212)
    return DescentGuidance().eval()


def _hazard(n, safe_cells, seed):
    g = torch.Generator().manual_seed(seed)
    h = 0.5 + 0.4 * torch.rand(n, generator=g)
    for c in safe_cells:
        h[c] = 0.1 + 0.1 * torch.rand(1, generator=g).item()
    return h


def example_inputs():
    # 1.19 km up, descending at 20 m/s, drifting downrange at 8 m/s, plenty of fuel
    return torch.tensor([1190.0, -20.0, 310.0, 8.0, 400.0]), _hazard(24, [4, 9, 15], seed=0)


def dynamic_shapes():
    return (None, {0: Dim("cells", min=4, max=256)})


def verify_inputs():
    return [
        example_inputs(),                                           # full descent, divert to safe cell, landed
        (torch.tensor([1190.0, -20.0, 310.0, 8.0, 400.0]), _hazard(24, [], seed=1)),   # no safe cell: abort
        (torch.tensor([1500.0, -30.0, 100.0, 0.0, 60.0]), _hazard(8, [2], seed=2)),    # runs out of fuel
        (torch.tensor([300.0, -12.0, 420.0, 2.0, 300.0]), _hazard(12, [8], seed=3)),   # starts in approach;
        # safe cell is right below (search offset 0)
        (torch.tensor([120.0, -30.0, 900.0, 0.0, 300.0]), _hazard(6, [0], seed=4)),    # position beyond the map
        # (clamped to last cell), distant safe cell, too fast in terminal: full throttle, off-target hard landing
        (torch.tensor([-0.2, 0.0, 100.0, 0.0, 50.0]), _hazard(4, [], seed=5)),    # already down (altimeter
        # reads -0.2 m in a shallow dip): guidance loop runs 0 times -> landed
        (torch.tensor([1.0, -2.0, 100.0, 0.0, 50.0]), _hazard(4, [], seed=6)),    # 1 m up: one terminal step
    ]
