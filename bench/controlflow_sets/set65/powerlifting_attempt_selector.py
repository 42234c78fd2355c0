"""Powerlifting meet planner: estimates a lifter's 1RM from training history and picks the
three competition attempts.

History rows are training sessions: (top single in kg, RPE of that single, bodyweight kg).
With at least 4 sessions a GRU estimator predicts today's 1RM; with fewer sessions the coach's
rule of thumb (best RPE-adjusted single) is used.  Attempts are planned one after another:
the opener is conservative; each next jump depends on the predicted make-probability of the
previous attempt (repeat the weight if the miss risk is high, jump big if it was easy).
"""
import torch
import torch.nn as nn
from torch.export import Dim


class OneRMEstimator(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.gru = nn.GRU(3, hidden, batch_first=True)
        self.out = nn.Linear(hidden, 1)

    def forward(self, history):
        if history.shape[0] < 4:
            # too little data for the sequence model: RPE-adjusted best single (RPE 10 = max)
            adjusted = history[:, 0] * (1.0 + 0.033 * (10.0 - history[:, 1]))
            return adjusted.amax()
        scale = history[:, 0].amax()
        x = history / torch.stack([scale, torch.tensor(10.0), torch.tensor(100.0)])
        _, h = self.gru(x.unsqueeze(0))
        return scale * (1.0 + 0.05 * torch.tanh(self.out(h[-1, 0])).squeeze(0))


class AttemptSelector(nn.Module):
    def __init__(self, n_attempts=3, opener_pct=0.91, spread_kg=6.0):
        super().__init__()
        self.n_attempts = n_attempts
        self.opener_pct = opener_pct
        self.spread_kg = spread_kg
        self.estimator = OneRMEstimator()

    def make_probability(self, weight, e1rm):
        return torch.sigmoid((e1rm - weight) / self.spread_kg * 2.0)

    def forward(self, history):
        e1rm = self.estimator(history)
        weight = self.opener_pct * e1rm
        attempts, probs = [], []
        for i in range(self.n_attempts):
            p = self.make_probability(weight, e1rm)
            attempts.append(weight)
            probs.append(p)
            if p < 0.5:
                jump = torch.zeros(())          # likely miss: repeat the weight
            elif p > 0.9:
                jump = 0.06 * e1rm              # easy: big jump
            else:
                jump = 0.025 * e1rm
            weight = weight + jump
        return e1rm, torch.stack(attempts), torch.stack(probs)


def model():
    torch.manual_seed(658)
    return AttemptSelector().eval()


def _history(tops, rpes, bw=82.0):
    n = len(tops)
    return torch.stack([torch.tensor(tops), torch.tensor(rpes), torch.full((n,), bw)], dim=1)


def example_inputs():
    return (_history([180.0, 182.5, 185.0, 187.5, 190.0, 190.0], [8.0, 8.0, 8.5, 8.5, 9.0, 8.5]),)


def dynamic_shapes():
    return ({0: Dim("sessions", min=2, max=128)},)


def verify_inputs():
    return [
        example_inputs(),                                               # GRU estimate; opener easy -> big jump, then normal jumps
        (_history([140.0, 145.0, 150.0], [9.0, 9.5, 9.5], 67.0),),      # 3 sessions: rule-of-thumb estimate
        (_history([200.0, 205.0, 210.0, 212.5, 215.0, 217.5, 220.0, 222.5, 225.0, 227.5],
                  [7.0, 7.5, 7.0, 8.0, 7.5, 8.0, 8.0, 8.5, 8.0, 8.5], 105.0),),  # long history: two big jumps, third attempt risky (p < 0.5)
        (_history([100.0, 101.0], [10.0, 10.0], 58.0),),               # 2 sessions at RPE 10
    ]
