"""Medication-adherence tracker on a smart pill bottle: 6-axis IMU stream ->
per-sample event state (0 idle, 1 cap open, 2 tilted/pouring, 3 dose confirmed).
A tiny learned gesture scorer gates the tilt transition; still samples are skipped;
the per-window helper returns early once a dose is confirmed.
Returns the state trace and the number of confirmed doses.
"""
import torch
from torch import nn

WIN = 8
IDLE, OPEN, TILT, DOSE = 0, 1, 2, 3


class GestureScorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(6, 8)
        self.out = nn.Linear(8, 1)

    def forward(self, s):
        return torch.sigmoid(self.out(torch.relu(self.fc(s)))).reshape(())


def step_window(win, state, scorer):
    """Advance the state machine over one window; returns (state, trace)."""
    trace = []
    for i in range(win.shape[0]):
        s = win[i]
        motion = s[3:].abs().sum()
        if motion < 0.05:
            trace.append(state)
            continue  # bottle at rest
        if state == IDLE and s[3] > 2.0:  # twist around x: cap unscrewed
            state = torch.tensor(OPEN)
        elif state == OPEN and s[2] < -0.3 and scorer(s) > 0.5:  # gravity flips: tilted
            state = torch.tensor(TILT)
        elif state == TILT and s[2] > 0.7:
            state = torch.tensor(DOSE)
            trace.append(state)
            return state, trace
        trace.append(state)
    return state, trace


class AdherenceTracker(nn.Module):
    def __init__(self):
        super().__init__()
        self.scorer = GestureScorer()

    def forward(self, imu):  # (T, 6), T multiple of WIN
        state = torch.tensor(IDLE)
        trace = []
        doses = torch.zeros((), dtype=torch.int64)
        for w in range(imu.shape[0] // WIN):
            state, tr = step_window(imu[w * WIN:(w + 1) * WIN], state, self.scorer)
            trace = trace + tr
            if state == DOSE:
                doses = doses + 1
                state = torch.tensor(IDLE)
        return torch.stack(trace), doses


def model():
    torch.manual_seed(0)
    return AdherenceTracker().eval()


REST = [0.0, 0.0, 1.0, 0.0, 0.0, 0.0]
MOVE = [0.1, 0.0, 0.9, 0.3, 0.2, 0.0]
TWIST = [0.0, 0.0, 1.0, 3.0, 0.0, 0.0]
TIP = [0.0, 0.8, -0.6, 0.5, 0.4, 0.0]    # knocked over: scorer rejects
POUR = [0.5, 0.8, -0.6, -0.5, 0.4, 0.0]  # pouring gesture: scorer accepts
UPRIGHT = [0.0, 0.1, 0.95, 0.2, 0.3, 0.0]


def _imu(rows):
    return (torch.tensor(rows),)


def example_inputs():
    return _imu([REST, TWIST, MOVE, TIP, POUR, TIP, UPRIGHT, REST] + [REST, MOVE] * 4)


def dynamic_shapes():
    return ({0: WIN * torch.export.Dim("windows", min=2, max=64)},)


def verify_inputs():
    return [
        _imu([REST] * 16),                                                   # nothing happens
        _imu([TWIST, POUR, MOVE, UPRIGHT, REST, REST, REST, REST] +           # dose mid-window
             [TWIST, REST, POUR, REST, UPRIGHT, MOVE, MOVE, MOVE] + [MOVE] * 8),  # second dose
        _imu([MOVE, TIP, TWIST, MOVE, MOVE, MOVE, MOVE, MOVE] * 3),          # tip before open
    ]
