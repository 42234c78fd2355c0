"""Dynamic difficulty adjustment for a mobile puzzle game from recent session stats.

Kind T. Constructs: 1, 2, 3, 8.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class DifficultyAdjuster(nn.Module):
    def __init__(self, window=10):
        super().__init__()
        self.window = window
        self.enc = nn.Linear(5, 12)
        self.out = nn.Linear(12, 1)

    def forward(self, sessions):
        # sessions: (S, 5) = won, deaths, minutes, hints used, rage quit (0/1)
        if sessions.shape[0] > self.window:
            recent = sessions[-self.window:]
        else:
            recent = sessions
        win_rate = recent[:, 0].mean()
        deaths = recent[:, 1].mean()
        rage = recent[:, 4] > 0.5
        if win_rate > 0.7 and not deaths > 3:
            delta = torch.tensor(1.0)
        elif win_rate < 0.3 or rage.any():
            delta = torch.tensor(-1.0)
        else:
            delta = torch.tensor(0.0)
        emb = torch.tanh(self.enc(recent)).mean(0)
        fine = torch.tanh(self.out(emb)).squeeze(0) * 0.25
        return delta + fine


def model():
    torch.manual_seed(104)
    return DifficultyAdjuster().eval()


def _sessions(S, won_every, deaths, rage_at=None):
    rows = []
    for i in range(S):
        won = 1.0 if (won_every and i % won_every != 0) else 0.0
        rows.append([won, deaths, 6.0 + (i % 3), 1.0, 1.0 if i == rage_at else 0.0])
    return torch.tensor(rows)


def example_inputs():
    return (_sessions(14, 10, 1.0),)


def dynamic_shapes():
    return ({0: Dim("sessions", min=2, max=50)},)


def verify_inputs():
    return [
        example_inputs(),                   # >window, win rate 0.8, few deaths -> harder
        (_sessions(6, 10, 5.0),),           # <=window, wins but many deaths -> neutral
        (_sessions(50, 0, 2.0),),           # never wins -> easier (first half of or)
        (_sessions(4, 2, 1.0, rage_at=3),), # 50% wins, rage quit -> easier (second half of or)
        (_sessions(2, 3, 1.0),),            # 50% wins, no rage -> neutral
    ]
