"""Railway level-crossing controller (warning lights, barriers, obstacle radar).

Kind X.  Constructs: 1, 2, 3, 5, 6.
A Python state machine (IDLE -> WARNING -> DOWN -> CLEARING -> IDLE, plus
FAULT) is stepped over the track-circuit / barrier-switch samples; a learned
obstacle detector on radar features can request an emergency stop for an
approaching train while barriers are down.  A barrier that never reports
"down" drives the controller to FAULT, which stops the loop (fail-safe hold).
"""
import torch
import torch.nn as nn
from torch.export import Dim

STEPS = Dim("steps", min=4, max=512)
RADAR = 8
IDLE, WARNING, DOWN, CLEARING, FAULT = 0, 1, 2, 3, 4


class ObstacleDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(RADAR, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, feats):
        # feature 0 is the calibrated radar return strength inside the crossing box
        return torch.sigmoid(0.1 * self.mlp(feats).squeeze(-1) + 8.0 * (feats[:, 0] - 0.5))


class CrossingController(nn.Module):
    def __init__(self, warn_steps=3, gate_timeout=4, clear_steps=2):
        super().__init__()
        self.detector = ObstacleDetector()
        self.warn_steps = warn_steps
        self.gate_timeout = gate_timeout
        self.clear_steps = clear_steps

    def forward(self, circuits, radar):
        # circuits[:, 0] approach track circuit, [:, 1] island circuit, [:, 2] barrier-down switch
        p_obstacle = self.detector(radar)
        state, timer = IDLE, 0
        stop_train = torch.zeros(())
        trace = []
        for t in range(circuits.shape[0]):
            approach = circuits[t, 0] > 0.5
            island = circuits[t, 1] > 0.5
            if state == IDLE:
                if approach or island:
                    state, timer = WARNING, 0
            elif state == WARNING:
                timer += 1
                if timer >= self.warn_steps:
                    state, timer = DOWN, 0
            elif state == DOWN:
                timer += 1
                if not circuits[t, 2] > 0.5 and timer > self.gate_timeout:
                    state = FAULT
                elif p_obstacle[t] > 0.8 and approach:
                    stop_train = torch.ones(())
                elif not approach and not island:
                    state, timer = CLEARING, 0
            elif state == CLEARING:
                timer += 1
                if approach or island:
                    state, timer = DOWN, 0          # second train
                elif timer >= self.clear_steps:
                    state = IDLE
            else:
                break                               # FAULT: hold barriers down, call the maintainer
            trace.append(float(state))
        return torch.tensor(trace), stop_train


def model():
    torch.manual_seed(63014)
    return CrossingController().eval()


def _scenario(n, seed, trains=(), gate_ok=True, obstacle=None):
    """trains: list of (approach_start, island_start, island_end)."""
    g = torch.Generator().manual_seed(seed)
    c = torch.zeros(n, 3)
    for a, i0, i1 in trains:
        c[a:i0, 0] = 1.0
        c[i0:i1, 1] = 1.0
        if gate_ok:
            c[a + 4:i1 + 1, 2] = 1.0            # barrier reports down shortly after the lowering command
    radar = 0.1 * torch.rand(n, RADAR, generator=g)
    if obstacle is not None:
        a, b = obstacle
        radar[a:b, 0] = 1.0
    return c, radar


def example_inputs():
    return _scenario(30, 1, trains=[(3, 14, 18)])


def dynamic_shapes():
    return ({0: STEPS}, {0: STEPS})


def verify_inputs():
    return [
        example_inputs(),                                        # one train: full cycle back to IDLE
        _scenario(30, 2, trains=[(3, 14, 18)], gate_ok=False),   # barrier never down: FAULT -> break
        _scenario(30, 3, trains=[(3, 14, 18)], obstacle=(9, 12)),  # car stuck on the crossing: stop train
        _scenario(40, 4, trains=[(3, 12, 15), (16, 24, 27)]),    # second train while CLEARING: back to DOWN
        _scenario(4, 5),                                         # no train at all, shortest window
        _scenario(12, 6, trains=[(0, 0, 3)]),                    # train already on the island at t=0
    ]
