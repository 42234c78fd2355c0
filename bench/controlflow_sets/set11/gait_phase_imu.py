"""Gait phase detection from a shank-mounted IMU (exoskeleton / insole controller).

A rule-based state machine over the sagittal gyro and acceleration magnitude tracks the phases
stance -> pre-swing -> swing -> stance (heel strike), with a swing timeout; per-frame MLP logits
are biased towards the tracked phase. Stride durations are collected at each heel strike and the
cadence is computed from them when any were seen.
Tricky: a state machine in a for loop over a dynamic size with .item() tests, nested if/elif on
the state, and/or, lists built in the loop and read back, branch on a list length.
State codes: 0 stance, 1 pre-swing, 2 swing.
"""
import torch
import torch.nn.functional as F
from torch import nn


class GaitPhase(nn.Module):
    def __init__(self):
        super().__init__()
        self.frame_mlp = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 3))
        self.push_thr = -1.0     # rad/s, toe-off push
        self.swing_thr = 1.5     # rad/s
        self.impact_thr = 15.0   # m/s^2
        self.max_swing = 40      # frames
        self.fs = 100.0

    def forward(self, imu):
        # imu: (1, T, 6) acc xyz (m/s^2), gyro xyz (rad/s)
        x = imu[0]
        gyro = F.avg_pool1d(x[:, 4].reshape(1, 1, -1), 3, stride=1, padding=1, count_include_pad=False)[0, 0]
        acc = x[:, :3].norm(dim=1)
        state = 0
        swing_len = 0
        last_strike = -1
        states = []
        strides = []
        for t in range(x.shape[0]):
            g = gyro[t].item()
            if state == 0:
                if g < self.push_thr:
                    state = 1
            elif state == 1:
                if g > self.swing_thr:
                    state = 2
                    swing_len = 0
            else:
                swing_len += 1
                if (g < 0.0 and acc[t] > self.impact_thr) or swing_len > self.max_swing:
                    state = 0
                    if last_strike >= 0:
                        strides.append(torch.tensor(float(t - last_strike)))
                    last_strike = t
            states.append(state)
        phase = F.one_hot(torch.tensor(states), 3).float()
        logits = self.frame_mlp(x) + 4.0 * phase
        if len(strides) > 0:
            cadence = 60.0 * self.fs / torch.stack(strides).mean()
        else:
            cadence = torch.zeros(())
        return logits, cadence


def model():
    torch.manual_seed(17)
    return GaitPhase().eval()


def _walk(T, period, seed, impact=25.0):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(T, dtype=torch.float32)
    ph = 2 * 3.14159 * t / period
    imu = 0.05 * torch.randn(1, T, 6, generator=g)
    imu[0, :, 2] += 9.81
    imu[0, :, 4] += 3.0 * torch.sin(ph + 0.3)
    spikes = (torch.sin(ph + 0.3 + 0.6) < -0.98).float()      # shortly after the gyro goes negative
    imu[0, :, 0] += impact * spikes
    return imu


def example_inputs():
    return (_walk(200, 50.0, 0),)


def dynamic_shapes():
    return ({1: torch.export.Dim("t", min=8, max=2000)},)


def verify_inputs():
    return [
        (_walk(300, 110.0, 1, impact=0.0),),   # slow, soft steps: swing timeout ends each swing
        (_walk(20, 50.0, 2),),                  # short: at most one heel strike
        (torch.zeros(1, 16, 6),),               # standing still
    ]
