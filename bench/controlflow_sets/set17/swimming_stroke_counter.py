"""Swimming stroke counter on wrist IMU: peak state machine over a dynamic-length window (tricky)."""
import torch
from torch import nn


class StrokeCounter(nn.Module):
    def __init__(self, ch=6, hidden=16):
        super().__init__()
        self.filt = nn.Conv1d(ch, 1, 5, padding=2)
        self.style = nn.Linear(ch, 4)
        self.hi = 0.5
        self.lo = -0.5

    def forward(self, imu: torch.Tensor):
        # imu: [T, ch], T dynamic
        sig = self.filt(imu.t().unsqueeze(0)).squeeze(0).squeeze(0)  # [T]
        sig = sig - sig.mean()
        state = 0  # 0 = waiting for peak, 1 = waiting for trough
        strokes = torch.zeros((), dtype=torch.int64)
        peaks = []
        for t in range(imu.shape[0]):
            v = sig[t]
            if state == 0:
                if v > self.hi:
                    state = 1
                    peaks.append(v)
            else:
                if v < self.lo:
                    state = 0
                    strokes = strokes + 1
        if len(peaks) > 0:
            amp = torch.stack(peaks).mean()
        else:
            amp = torch.zeros(())
        style = self.style(imu.mean(0)).softmax(-1)
        return strokes, amp, style


def model():
    torch.manual_seed(6)
    return StrokeCounter().eval()


def _imu(t, freq, amp=3.0):
    m = model()
    w = m.filt.weight.detach()[0].sum(-1)  # [ch]
    tt = torch.arange(t, dtype=torch.float32)
    wave = torch.sin(tt * freq) * amp
    return wave[:, None] * w[None, :] / w.norm() ** 2


def example_inputs():
    return (_imu(40, 0.5),)


def dynamic_shapes():
    return ({0: torch.export.Dim("time", min=8, max=400)},)


def verify_inputs():
    return [(_imu(80, 0.3),), (_imu(20, 0.5, amp=0.1),), (_imu(60, 0.9, amp=2.0),)]
