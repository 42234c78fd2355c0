"""Chest-strap ECG: adaptive-threshold R-peak picking, heart rate and RMSSD (HRV)."""
import torch
import torch.nn as nn


class EcgRRIntervalAnalyzer(nn.Module):
    def __init__(self, fs=64.0, thr=0.5, refractory=8, max_len=128):
        super().__init__()
        self.fs = fs
        self.thr = thr
        self.refractory = refractory
        self.max_len = max_len

    def forward(self, ecg):
        if ecg.shape[0] > self.max_len:
            ecg = ecg[::2]
            fs = self.fs / 2
            refractory = self.refractory // 2
        else:
            fs = self.fs
            refractory = self.refractory
        x = ecg / ecg.abs().max()
        peaks = []
        last = -refractory
        for i in range(1, x.shape[0] - 1):
            if x[i] > self.thr and x[i] >= x[i - 1] and x[i] > x[i + 1] and i - last > refractory:
                peaks.append(i)
                last = i
        if len(peaks) < 2:
            return torch.zeros(()), torch.zeros(()), torch.tensor(len(peaks))
        rr = torch.tensor(peaks).diff().to(torch.float32) / fs
        hr = 60.0 / rr.mean()
        rmssd = rr.diff().pow(2).mean().sqrt() if len(peaks) > 2 else torch.zeros(())
        return hr, rmssd, torch.tensor(len(peaks))


def model():
    return EcgRRIntervalAnalyzer().eval()


QRS = [0.2, 0.65, 1.0, 0.7, -0.25, 0.05]


def _ecg(n, beats):
    # beats: (sample index of the R wave, amplitude)
    i = torch.arange(n, dtype=torch.float32)
    sig = 0.06 * torch.sin(0.21 * i) + 0.03 * torch.sin(0.05 * i + 1.0)
    for pos, amp in beats:
        for k, v in enumerate(QRS):
            j = pos - 2 + k
            if 0 <= j < n:
                sig[j] = sig[j] + amp * v
    return (sig,)


def example_inputs():
    return _ecg(96, [(10, 0.95), (36, 1.0), (60, 0.9), (87, 0.97)])


def dynamic_shapes():
    return ({0: torch.export.Dim("samples", min=2, max=512)},)


def verify_inputs():
    return [
        _ecg(40, [(20, 1.0)]),                                   # one beat: no rate yet
        _ecg(70, [(15, 0.92), (48, 1.0)]),                       # exactly two beats
        _ecg(180, [(12, 1.0), (50, 0.93), (92, 0.96), (130, 0.9), (166, 0.98)]),  # long: decimated
    ]
