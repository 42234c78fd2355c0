"""Autonomous docking of a warehouse/cleaning robot with a lidar.

Each time step provides a 2-D lidar scan (range and reflectance per beam; the
beam count is dynamic). A detector submodule looks for the retro-reflective
docking target and returns None when it cannot see it. A finite-state
machine (SEARCH -> ALIGN -> APPROACH -> DOCKED, with BACKOFF when an obstacle
is too close) produces a velocity command per step; a small learned
controller smooths the steering while approaching. The episode ends early
once docked.

Kind X. Constructs: 1 (if/elif/else on tensor comparisons), 2 (submodule
returns None in one branch; state variables assigned in some branches only),
3 (`and` / `not` mixing tensor predicates and Python state), 5 (for over the
dynamic number of scans, append + stack), 6 (break when docked, continue while
backing off), 7 (detector submodule with its own branches), 9 (Python int
state machine, static config). Nested branches inside a loop with early exit.
"""
import math

import torch
import torch.nn as nn

SEARCH, ALIGN, APPROACH, BACKOFF, DOCKED = 0, 1, 2, 3, 4


class DockDetector(nn.Module):
    def __init__(self, fov=math.pi, min_reflectance=0.6):
        super().__init__()
        self.fov = fov
        self.min_reflectance = min_reflectance

    def forward(self, scan):
        # scan: (B, 2) [range m, reflectance 0..1]
        reflect = scan[:, 1]
        idx = torch.argmax(reflect)
        if reflect[idx] < self.min_reflectance:
            return None
        angles = torch.linspace(-self.fov / 2, self.fov / 2, scan.shape[0])
        return angles[idx], scan[idx, 0]


class DockingFSM(nn.Module):
    def __init__(self, safety_m=0.25, dock_m=0.12, align_rad=0.08, backoff_steps=2, hidden=12):
        super().__init__()
        self.safety = safety_m
        self.dock_dist = dock_m
        self.align_tol = align_rad
        self.backoff_steps = backoff_steps
        self.detector = DockDetector()
        self.steer = nn.Sequential(nn.Linear(2, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, scans):
        # scans: (T, B, 2)
        state = SEARCH
        backoff_left = 0
        commands = []
        for t in range(scans.shape[0]):
            scan = scans[t]
            target = self.detector(scan)
            obstacles = scan[:, 0][scan[:, 1] < self.detector.min_reflectance]
            if state == BACKOFF:
                commands.append(torch.tensor([-0.1, 0.0]))
                backoff_left -= 1
                if backoff_left == 0:
                    state = SEARCH
                continue
            if obstacles.numel() > 0 and obstacles.min() < self.safety and not state == APPROACH:
                state = BACKOFF
                backoff_left = self.backoff_steps
                commands.append(torch.tensor([0.0, 0.0]))
                continue

            if state == SEARCH:
                cmd = torch.tensor([0.0, 0.5])           # rotate in place
                if target is not None:
                    state = ALIGN
            elif state == ALIGN:
                if target is None:
                    state = SEARCH
                    cmd = torch.tensor([0.0, 0.5])
                else:
                    bearing, _ = target
                    cmd = torch.stack([torch.zeros(()), -1.5 * bearing])
                    if bearing.abs() < self.align_tol:
                        state = APPROACH
            else:  # APPROACH
                if target is None:
                    state = SEARCH
                    cmd = torch.zeros(2)
                else:
                    bearing, dist = target
                    if dist < self.dock_dist:
                        state = DOCKED
                        commands.append(torch.zeros(2))
                        break
                    w = -bearing + 0.1 * torch.tanh(self.steer(torch.stack([bearing, dist]))).squeeze()
                    cmd = torch.stack([0.15 * dist.clamp(max=1.0), w])
            commands.append(cmd)
        return torch.stack(commands), torch.tensor([state])


def model():
    torch.manual_seed(3419)
    return DockingFSM().eval()


def _scan(beams, dock_beam=None, dock_range=1.0, wall=2.0, obstacle=None, seed=0):
    g = torch.Generator().manual_seed(seed)
    ranges = wall + 0.2 * torch.rand(beams, generator=g)
    refl = 0.1 + 0.3 * torch.rand(beams, generator=g)
    if dock_beam is not None:
        ranges[dock_beam] = dock_range
        refl[dock_beam] = 0.95
    if obstacle is not None:
        ranges[obstacle] = 0.15
    return torch.stack([ranges, refl], dim=1)


def _episode(beams, plan, seed):
    """plan: list of (dock_beam or None, dock_range, obstacle_beam or None)."""
    return torch.stack([_scan(beams, d, r, obstacle=o, seed=seed + i) for i, (d, r, o) in enumerate(plan)])


def example_inputs():
    c = 18  # centre beam of 37 -> bearing 0
    plan = [(None, 1.0, None), (None, 1.0, None), (30, 1.2, None), (24, 1.1, None), (c, 1.0, None),
            (c, 0.8, None), (c, 0.5, None), (c, 0.3, None), (c, 0.1, None), (c, 0.1, None)]
    return (_episode(37, plan, 1),)


def dynamic_shapes():
    T = torch.export.Dim("steps", min=2, max=64)
    B = torch.export.Dim("beams", min=8, max=360)
    return ({0: T, 1: B},)


def verify_inputs():
    c = 18
    lost = [(None, 1.0, None), (10, 1.5, None), (None, 1.0, None), (12, 1.4, None), (c, 1.3, None),
            (c, 1.0, None), (None, 1.0, None), (None, 1.0, None)]
    obstacle = [(None, 1.0, 3), (None, 1.0, None), (None, 1.0, None), (20, 1.0, None), (c, 0.9, None),
                (c, 0.9, 2), (c, 0.6, None), (c, 0.4, None)]
    return [
        # search, align (several steps), approach, dock -> break (remaining scans ignored)
        example_inputs(),
        # target lost while aligning and again while approaching -> back to SEARCH, never docked
        (_episode(37, lost, 2),),
        # obstacle while searching -> BACKOFF for 2 steps (continue), then search/align/approach;
        # an obstacle during APPROACH is ignored (`not state == APPROACH`)
        (_episode(37, obstacle, 3),),
        # 2 scans with 8 beams, nothing visible: keep searching
        (_episode(8, [(None, 1.0, None), (None, 1.0, None)], 4),),
    ]
