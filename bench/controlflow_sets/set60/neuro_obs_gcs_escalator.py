"""Ward neuro-observation chart: Glasgow Coma Scale trend + pupils -> escalation level.

Escalation: 0 routine, 1 increase obs frequency, 2 urgent medical review, 3 emergency
(airway / suspected herniation)."""
import torch
import torch.nn as nn
from torch.export import Dim


def gcs_total(row):
    eye, verbal, motor, intubated = row[0], row[1], row[2], row[5]
    if intubated > 0.5:
        # verbal not testable through a tube: Meredith regression estimate of V from E and M
        verbal = (-0.3756 + 0.5713 * motor + 0.4233 * eye).clamp(1.0, 5.0)
    return eye + verbal + motor


def anisocoria(row, mm=1.0):
    return (row[3] - row[4]).abs() > mm


class NeuroObsEscalator(nn.Module):
    def __init__(self, min_trend_points=3):
        super().__init__()
        self.min_trend_points = min_trend_points
        self.risk = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 1))

    def forward(self, obs):
        # obs: (N, 6) chart rows, oldest first: E, V, M, pupil L mm, pupil R mm, intubated
        series = []
        for i in range(obs.shape[0]):
            series.append(gcs_total(obs[i]))
        gcs = torch.stack(series)
        latest = obs[-1]
        risk = torch.sigmoid(self.risk(latest / 6.0)).squeeze(-1)
        if gcs[-1] <= 8:
            return torch.tensor(3), gcs, risk  # "GCS 8, intubate"
        level = torch.tensor(0)
        if obs.shape[0] >= self.min_trend_points:
            best = gcs[:-1].max()
            motor_best = obs[:-1, 2].max()
            if anisocoria(latest) and best - gcs[-1] >= 1:
                level = torch.tensor(3)
            elif best - gcs[-1] >= 2:
                level = torch.tensor(2)
            elif latest[2] < motor_best or risk > 0.9:
                level = torch.tensor(1)
        elif anisocoria(latest):
            level = torch.tensor(2)  # no trend yet, but a new unequal pupil needs review
        return level, gcs, risk


def model():
    torch.manual_seed(6002)
    return NeuroObsEscalator().eval()


def _chart(n, last=None, intubated_at=None):
    rows = [[4.0, 5.0, 6.0, 3.0, 3.0, 0.0] for _ in range(n)]
    for i in range(0, n, 3):
        rows[i][1] = 4.0  # intermittently confused
    if intubated_at is not None:
        for i in range(intubated_at, n):
            rows[i][1], rows[i][5] = 1.0, 1.0
    if last is not None:
        rows[-1] = list(last)
    return (torch.tensor(rows),)


def example_inputs():
    return _chart(6)


def dynamic_shapes():
    return ({0: Dim("obs_rows", min=2, max=48)},)


def verify_inputs():
    return [
        _chart(6),                                       # example: stable 14-15 -> level 0
        _chart(6, last=[4, 5, 5, 3, 3, 0]),              # motor drops by one -> level 1
        _chart(8, last=[3, 3, 6, 3, 3, 0]),              # GCS falls by 3 -> level 2
        _chart(5, last=[3, 4, 6, 5.5, 3, 0]),            # blown pupil + GCS drop -> level 3
        _chart(4, last=[2, 2, 4, 3, 3, 0]),              # GCS 8 -> emergency, early return
        _chart(2, last=[4, 5, 6, 4.5, 3, 0]),            # min rows, new anisocoria -> level 2
        _chart(2),                                       # min rows, nothing -> level 0
        _chart(48, intubated_at=40),                     # max rows, intubated tail (V estimated)
    ]
