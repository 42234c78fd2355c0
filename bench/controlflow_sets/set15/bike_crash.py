"""Bike crash detector for a helmet / handlebar IMU (free fall -> impact -> lying still).

Input: IMU window (T, 6) = accel (m/s^2) + gyro (rad/s), T dynamic. A tensor-valued state
machine walks the samples; once a crash is confirmed the loop stops and a small GRU scores
the severity of the impact neighbourhood.
"""

import torch
from torch import nn

NORMAL, FREEFALL, IMPACT = 0, 1, 2


class CrashDetector(nn.Module):
    def __init__(self, freefall_g: float = 3.0, impact_g: float = 40.0, still_needed: int = 5):
        super().__init__()
        self.freefall_g = freefall_g
        self.impact_g = impact_g
        self.still_needed = still_needed
        self.max_fall = 15
        self.gru = nn.GRU(6, 16, batch_first=True)
        self.sev = nn.Linear(16, 1)

    def severity(self, imu: torch.Tensor, at: torch.Tensor) -> torch.Tensor:
        start = int(at.item())
        seg = imu[max(start - 4, 0): start + 4].unsqueeze(0)
        _, h = self.gru(seg / 10.0)
        return torch.sigmoid(self.sev(h[-1])).view(())

    def forward(self, imu: torch.Tensor):
        acc = imu[:, :3].norm(dim=1)
        gyro = imu[:, 3:].norm(dim=1)
        state = torch.tensor(NORMAL)
        fall_start = torch.tensor(0)
        impact_at = torch.tensor(-1)
        still = torch.tensor(0)
        crashed = torch.tensor(False)
        for t in range(imu.shape[0]):
            a = acc[t]
            if state == NORMAL:
                if a < self.freefall_g:
                    state = torch.tensor(FREEFALL)
                    fall_start = torch.tensor(t)
            elif state == FREEFALL:
                if a > self.impact_g:
                    state = torch.tensor(IMPACT)
                    impact_at = torch.tensor(t)
                elif t - fall_start > self.max_fall:
                    state = torch.tensor(NORMAL)
            else:
                still = still + 1 if gyro[t] < 0.2 else torch.tensor(0)
                if still >= self.still_needed:
                    crashed = torch.tensor(True)
                    break
        if crashed:
            sev = self.severity(imu, impact_at)
        else:
            sev = torch.zeros(())
        return crashed.float(), impact_at, sev


def model() -> nn.Module:
    torch.manual_seed(0)
    return CrashDetector().eval()


def _ride(t, seed, fall=None, impact=None, moving_after=False, fall_len=6):
    g = torch.Generator().manual_seed(seed)
    acc = torch.tensor([0.0, 0.0, 9.81]) + 0.5 * torch.randn(t, 3, generator=g)
    gyro = 0.5 + 0.2 * torch.rand(t, 3, generator=g)
    if fall is not None:
        acc[fall:fall + fall_len] = 0.3 * torch.randn(fall_len, 3, generator=g)
    if impact is not None:
        acc[impact] = torch.tensor([30.0, 40.0, 20.0])
        if not moving_after:
            gyro[impact + 1:] = 0.02 * torch.rand(t - impact - 1, 3, generator=g)
    return torch.cat([acc, gyro], dim=1)


def example_inputs() -> tuple:
    return (_ride(40, 1, fall=10, impact=16),)


def dynamic_shapes():
    return ({0: torch.export.Dim("t", min=8, max=500)},)


def verify_inputs() -> list:
    return [
        (_ride(30, 2),),                                          # normal riding
        (_ride(60, 3, fall=5, fall_len=3),),                      # pothole: fall then timeout
        (_ride(50, 4, fall=20, impact=24, moving_after=True),),   # impact, rider gets up
    ]
