"""3D-printer failure monitor: streams sensor rows (nozzle temp, bed temp, extruder
current, filament flow, vibration x/y) through a GRU cell. Disconnected readings
(negative temperature) are skipped, thermal runaway aborts the scan from inside a
helper, and only the scored steps are returned (data-dependent length).
"""
import torch
from torch import nn

F_IN = 6
HID = 24
NOZZLE_MAX = 290.0


def thermal_check(row, prev_row):
    """0: ok, 1: runaway (abort), 2: warning."""
    if row[0] > NOZZLE_MAX:
        return 1
    if (row[0] - prev_row[0]).abs() > 15.0 or (row[1] - prev_row[1]).abs() > 10.0:
        return 2
    return 0


class PrinterMonitor(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm_mu = nn.Parameter(torch.tensor([210.0, 60.0, 0.8, 1.0, 0.0, 0.0]), requires_grad=False)
        self.norm_sd = nn.Parameter(torch.tensor([20.0, 10.0, 0.3, 0.3, 1.0, 1.0]), requires_grad=False)
        self.cell = nn.GRUCell(F_IN, HID)
        self.out = nn.Linear(HID, 1)

    def forward(self, seq):  # seq: (T, 6)
        h = torch.zeros(1, HID)
        prev = seq[0]
        scores = [torch.zeros(1)]
        warnings = torch.zeros((), dtype=torch.int64)
        for t in range(seq.shape[0]):
            row = seq[t]
            if row[0] < 0 or row[1] < 0:
                continue  # thermistor disconnected
            code = thermal_check(row, prev)
            if code == 1:
                scores.append(torch.ones(1) * 10.0)
                break
            if code == 2:
                warnings = warnings + 1
            h = self.cell(((row - self.norm_mu) / self.norm_sd).unsqueeze(0), h)
            scores.append(torch.sigmoid(self.out(h)).reshape(1))
            prev = row
        return torch.cat(scores), warnings


def model():
    torch.manual_seed(0)
    return PrinterMonitor().eval()


def _seq(t, seed, edits=()):
    g = torch.Generator().manual_seed(seed)
    base = torch.tensor([210.0, 60.0, 0.8, 1.0, 0.0, 0.0])
    x = base + torch.randn(t, F_IN, generator=g) * torch.tensor([1.0, 0.5, 0.05, 0.05, 0.3, 0.3])
    for i, c, v in edits:
        x[i, c] = v
    return (x,)


def example_inputs():
    return _seq(12, 0)


def dynamic_shapes():
    return ({0: torch.export.Dim("steps", min=2, max=512)},)


def verify_inputs():
    return [
        _seq(10, 1, [(3, 0, -5.0), (6, 1, -1.0)]),          # disconnected rows skipped
        _seq(16, 2, [(5, 0, 300.0)]),                       # runaway -> break
        _seq(8, 3, [(2, 0, 240.0), (4, 1, 80.0)]),          # jumps -> warnings
        _seq(2, 4, [(0, 0, -3.0), (1, 1, -2.0)]),           # all skipped: only baseline
    ]
