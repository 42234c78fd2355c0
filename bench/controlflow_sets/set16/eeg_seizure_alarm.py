"""Wearable EEG seizure alarm: a windowed line-length detector with a small learned
scorer and an alarm state machine (idle -> suspect -> alarm). Stops scanning once
the alarm latches; emits per-window scores and the alarm window index (-1: none).
"""
import torch
from torch import nn

WIN = 16
CH = 8


def line_length(w):
    # mean absolute first difference per channel, averaged
    return (w[1:] - w[:-1]).abs().mean()


class Scorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(CH * 2, 16)
        self.fc2 = nn.Linear(16, 1)

    def forward(self, w):
        if w.abs().amax() > 40.0:  # electrode pop / saturation artifact
            return torch.zeros(1)
        feat = torch.cat([w.std(0), w.abs().amax(0)])
        return torch.sigmoid(self.fc2(torch.relu(self.fc1(feat))))


class SeizureAlarm(nn.Module):
    def __init__(self, thresh=1.5, hold=3):
        super().__init__()
        self.scorer = Scorer()
        self.thresh = thresh
        self.hold = hold

    def forward(self, eeg):  # eeg: (T, CH)
        n = eeg.shape[0] // WIN
        scores = []
        state = torch.zeros((), dtype=torch.int64)
        count = torch.zeros((), dtype=torch.int64)
        alarm_at = torch.full((), -1, dtype=torch.int64)
        for i in range(n):
            w = eeg[i * WIN:(i + 1) * WIN]
            ll = line_length(w)
            scores.append(self.scorer(w).reshape(()) * ll)
            if ll > self.thresh:
                count = count + 1
                state = torch.ones((), dtype=torch.int64)
            else:
                count = count * 0
                state = state * 0
            if count >= self.hold and state == 1:
                alarm_at = torch.tensor(i)
                break
        return torch.stack(scores), alarm_at


def model():
    torch.manual_seed(0)
    return SeizureAlarm().eval()


def _eeg(pattern, seed):
    g = torch.Generator().manual_seed(seed)
    parts = [torch.randn(WIN, CH, generator=g) * [0.3, 3.0, 30.0][p] for p in pattern]
    return torch.cat(parts, 0)


def example_inputs():
    return (_eeg([0, 1, 0, 1, 1, 0], 0),)


def dynamic_shapes():
    return ({0: torch.export.Dim("samples", min=16, max=1024)},)


def verify_inputs():
    return [
        (_eeg([0, 1, 1, 1, 1, 0, 0, 0], 1),),  # alarm latches at window 3 -> break
        (_eeg([0], 2),),                        # single quiet window
        (_eeg([0, 2, 0, 1], 4),),               # artifact window scored zero
        (_eeg([1, 1, 0, 1, 1, 0, 0, 1, 0, 1], 3),),  # bursts never long enough
    ]
