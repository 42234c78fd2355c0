"""Wind turbine fault detection from SCADA windows (nacelle edge computer).

6 channels (wind speed, rotor rpm, power, pitch, gearbox temp, vibration) over a window of any
length; long windows are pooled down first. A conv encoder and a small autoencoder give an anomaly
score (reconstruction error); anomalous windows that are not explained by curtailment go through
the fault classifier, curtailed ones are flagged for review, normal ones return zeros.
Typical: branch on a dynamic size, if/elif/else with and/not on tensor reductions, ternary.
"""
import torch
import torch.nn.functional as F
from torch import nn

NUM_FAULTS = 5


class TurbineFaultDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv1d(6, 16, 5, padding=2), nn.ReLU(),
                                     nn.Conv1d(16, 16, 5, padding=2), nn.ReLU())
        self.ae = nn.Sequential(nn.Linear(16, 4), nn.Tanh(), nn.Linear(4, 16))
        self.classifier = nn.Linear(16, NUM_FAULTS)
        self.anomaly_thr = 0.3

    def forward(self, scada, curtailed):
        # scada: (B, 6, T) standardised; curtailed: (B,) bool operator curtailment flag
        if scada.shape[2] >= 128:
            scada = F.avg_pool1d(scada, 4)
        z = self.encoder(scada).mean(dim=2)               # (B, 16)
        err = ((self.ae(z) - z) ** 2).mean(dim=1)         # (B,)
        worst = err.max()
        if worst > self.anomaly_thr and not curtailed.any():
            probs = torch.softmax(self.classifier(z), dim=1)
            status = torch.tensor(2)
        elif worst > self.anomaly_thr:
            probs = torch.zeros(scada.shape[0], NUM_FAULTS)
            status = torch.tensor(1)
        else:
            probs = torch.zeros(scada.shape[0], NUM_FAULTS)
            status = torch.tensor(0)
        severity = (worst / self.anomaly_thr).clamp(max=5.0) if worst > 0.125 else torch.zeros(())
        return err, probs, status, severity


def model():
    torch.manual_seed(14)
    return TurbineFaultDetector().eval()


def _window(b, t, amp, seed):
    g = torch.Generator().manual_seed(seed)
    return amp * torch.randn(b, 6, t, generator=g)


def example_inputs():
    return _window(2, 64, 2.0, 0), torch.tensor([False, False])


def dynamic_shapes():
    b = torch.export.Dim("b", min=2, max=64)
    return ({0: b, 2: torch.export.Dim("t", min=16, max=4096)}, {0: b})


def verify_inputs():
    return [
        (_window(3, 512, 30.0, 1), torch.tensor([False, False, False])),  # long, anomalous -> classify
        (_window(2, 48, 8.0, 2), torch.tensor([False, True])),           # anomalous but curtailed
        (_window(4, 200, 0.01, 3), torch.tensor([False] * 4)),            # quiet -> normal, tiny severity
    ]
