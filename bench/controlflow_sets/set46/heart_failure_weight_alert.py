"""T: telehealth heart-failure monitoring from daily home scale readings.

weights (T,) kg, present (T,) 1.0 if a reading was taken that day else 0.0.
Returns per-day alert scores (T,) and the index of the first alarm day or -1 (1,).
Constructs: 1, 2, 3, 5, 6
"""
import torch
import torch.nn as nn


class WeightGainAlert(nn.Module):
    def __init__(self, daily_kg=1.0, weekly_kg=2.5):
        super().__init__()
        self.daily_kg = daily_kg
        self.weekly_kg = weekly_kg
        self.score = nn.Linear(3, 1)

    def forward(self, weights, present):
        T = weights.shape[0]
        scores = [torch.zeros(())]
        last_w = weights[0]
        first_alarm = torch.tensor([-1.0])
        history = [weights[0]]
        for t in range(1, T):
            if present[t] < 0.5:
                scores.append(torch.zeros(()))
                continue
            w = weights[t]
            gain = w - last_w
            weekly = w - torch.stack(history[-7:]).min()
            s = torch.sigmoid(self.score(torch.stack([gain, weekly, w / 100.0])))[0]
            scores.append(s)
            if gain > self.daily_kg or weekly > self.weekly_kg:
                first_alarm = torch.tensor([float(t)])
                scores.extend([s] * (T - t - 1))
                break
            last_w = w
            history.append(w)
        return torch.stack(scores), first_alarm


def _series(T, seed, gaps=(), jump=None, creep=0.0):
    g = torch.Generator().manual_seed(seed)
    w = 82.0 + 0.1 * torch.randn(T, generator=g) + creep * torch.arange(T)
    if jump is not None:
        w[jump:] += 1.6
    present = torch.ones(T)
    for i in gaps:
        present[i] = 0.0
    return w, present


def model():
    torch.manual_seed(4609)
    return WeightGainAlert().eval()


def example_inputs():
    return _series(20, 1, gaps=(3, 4), jump=12)


def dynamic_shapes():
    T = torch.export.Dim("days", min=2, max=365)
    return ({0: T}, {0: T})


def verify_inputs():
    return [
        example_inputs(),                        # missing days (continue), daily jump -> alarm + break
        _series(2, 2),                           # T=min, stable: loop once, no alarm
        _series(30, 3, creep=0.6),               # slow creep: weekly rule fires (second `or` operand)
        _series(365, 4, gaps=(10, 200)),         # T=max stable: loop runs fully, no break
        _series(5, 5, gaps=(1, 2, 3, 4)),        # all later days missing
    ]
