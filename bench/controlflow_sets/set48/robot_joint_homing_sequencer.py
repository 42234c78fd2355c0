"""Homing sequence for a serial robot arm with limit switches (wrist joints first).

Per joint: if already on the switch, back off first; fast approach until the switch triggers,
back off, slow approach, and record the offset between trigger point and index pulse. Exceeding the
allowed travel is a fault that aborts the whole sequence. A small learned model refines the
recorded offsets by a sub-degree amount (temperature compensation).
"""
import torch
import torch.nn as nn


class HomingAxis(nn.Module):
    def __init__(self, fast=4.0, slow=0.5, backoff=6.0, max_travel=400.0):
        super().__init__()
        self.fast = fast
        self.slow = slow
        self.backoff = backoff
        self.max_travel = max_travel

    def forward(self, pos, switch):
        travel = torch.zeros(())
        if pos <= switch:
            # starting on (or past) the switch: move off it first
            while pos <= switch + self.backoff:
                pos = pos + self.fast
        while pos > switch:
            pos = pos - self.fast
            travel = travel + self.fast
            if travel > self.max_travel:
                return pos, torch.tensor(False)
        while pos <= switch + self.backoff:
            pos = pos + self.fast
        while pos > switch:
            pos = pos - self.slow
        return pos, torch.tensor(True)


class HomingSequencer(nn.Module):
    def __init__(self, wrist_first=True):
        super().__init__()
        self.wrist_first = wrist_first
        self.axis = HomingAxis()
        self.comp = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, start, switches, index_pulse):
        # start, switches, index_pulse: (J,) degrees
        J = start.shape[0]
        order = list(reversed(range(J))) if self.wrist_first else list(range(J))
        offsets = torch.zeros(J)
        homed = torch.zeros(J)
        for j in order:
            pos, ok = self.axis(start[j], switches[j])
            if not ok:
                # travel limit exceeded: abort, joints not yet homed stay un-homed
                return offsets, homed, torch.tensor(float(j))
            offsets[j] = index_pulse[j] - pos
            homed[j] = 1.0
        offsets = offsets + 0.01 * torch.tanh(self.comp(torch.stack([offsets, switches / 180.0], dim=1))).squeeze(1)
        return offsets, homed, torch.tensor(-1.0)


def model():
    torch.manual_seed(48017)
    return HomingSequencer().eval()


def example_inputs():
    return (torch.tensor([30.1, -20.3, 91.7, 10.2]),
            torch.tensor([-150.0, -120.0, -40.0, -170.0]),
            torch.tensor([-149.2, -119.6, -39.1, -169.8]))


def dynamic_shapes():
    j = torch.export.Dim("joints", min=2, max=8)
    return ({0: j}, {0: j}, {0: j})


def verify_inputs():
    return [
        example_inputs(),  # all joints home normally (approach loops run many times)
        (torch.tensor([-151.3, 0.7]), torch.tensor([-150.0, -100.0]), torch.tensor([-149.5, -99.4])),  # joint 0 starts past its switch -> back off first
        (torch.tensor([10.2, 350.1, 5.3]), torch.tensor([-10.0, -170.0, -20.0]), torch.tensor([-9.5, -169.0, -19.5])),  # joint 1 exceeds travel -> abort after joint 2
    ]
