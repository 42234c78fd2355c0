"""Gesture-controlled slide clicker: IMU state machine.

Input: IMU samples (T, 6) = accel xyz (g) + gyro xyz (rad/s) at 50 Hz, T dynamic. A
small learned filter denoises the yaw rate; a state machine recognises a wrist flick
(rotate out, then back within a time window) to the right (next slide, +1) or left
(previous slide, -1), followed by a cooldown. Returns the events as (sample index,
direction) rows; the number of events is data dependent.
"""
import torch
from torch import nn

IDLE, OUT_R, OUT_L, COOLDOWN = 0, 1, 2, 3


class YawFilter(nn.Module):
    def __init__(self):
        super().__init__()
        self.mix = nn.Linear(6, 1)
        with torch.no_grad():
            self.mix.weight.mul_(0.05)
            self.mix.weight[0, 5] += 1.0
            self.mix.bias.zero_()

    def forward(self, imu):
        return self.mix(imu)[:, 0]


class SlideClicker(nn.Module):
    def __init__(self):
        super().__init__()
        self.filt = YawFilter()
        self.on_thr = 2.0
        self.back_thr = 1.5
        self.min_hold = 2
        self.max_hold = 15
        self.cooldown = 10

    def forward(self, imu: torch.Tensor):
        yaw = self.filt(imu)
        state = IDLE
        hold = 0
        cool = 0
        events = []
        for t in range(imu.shape[0]):
            w = yaw[t]
            if state == COOLDOWN:
                cool -= 1
                if cool == 0:
                    state = IDLE
                continue
            if state == IDLE:
                if w > self.on_thr:
                    state, hold = OUT_R, 0
                elif w < -self.on_thr:
                    state, hold = OUT_L, 0
                continue
            hold += 1
            back = w < -self.back_thr if state == OUT_R else w > self.back_thr
            if back and hold >= self.min_hold:
                events.append(torch.tensor([t, 1 if state == OUT_R else -1]))
                state, cool = COOLDOWN, self.cooldown
            elif hold > self.max_hold:
                state = IDLE
        if len(events) == 0:
            return torch.zeros(0, 2, dtype=torch.long)
        return torch.stack(events)


def model():
    torch.manual_seed(17)
    return SlideClicker().eval()


def _imu(seed, T, flicks):
    """flicks: list of (start, direction, out_len, back)."""
    g = torch.Generator().manual_seed(seed)
    imu = torch.randn(T, 6, generator=g) * 0.2
    imu[:, 2] += 1.0
    for start, d, out_len, back in flicks:
        imu[start:start + out_len, 5] += 3.0 * d
        if back:
            imu[start + out_len:start + out_len + 3, 5] -= 3.0 * d
    return (imu,)


def example_inputs():
    return _imu(0, 60, [(5, 1, 3, True), (30, -1, 4, True)])


def dynamic_shapes():
    return ({0: torch.export.Dim("T", min=2, max=3000)},)


def verify_inputs():
    return [
        _imu(1, 2, []),
        _imu(2, 80, [(10, 1, 20, False), (50, -1, 3, True)]),   # held too long, then a left flick
        _imu(3, 120, [(5, 1, 3, True), (12, 1, 3, True), (40, -1, 3, True), (80, 1, 5, True)]),
        _imu(4, 40, []),
        _imu(5, 30, [(3, -1, 1, True)]),                       # too quick: back before min_hold
    ]
