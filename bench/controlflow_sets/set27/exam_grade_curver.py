"""Exam grade curving.

Weighted per-question points become percentage scores; the whole class gets
one bonus point at a time until the class mean reaches the target or the bonus
cap is hit. An unusually wide spread is then compressed toward the mean.
"""
import torch
import torch.nn as nn

NUM_QUESTIONS = 10


class ExamGradeCurver(nn.Module):
    def __init__(self, target_mean=72.0, max_bonus=15, spread_limit=14.0):
        super().__init__()
        self.target_mean = target_mean
        self.max_bonus = max_bonus
        self.spread_limit = spread_limit
        self.register_buffer("weights", 1.0 + torch.rand(NUM_QUESTIONS))

    def forward(self, points):
        # points: [S, Q] fraction of each question answered correctly (0..1)
        scores = 100.0 * (points * self.weights).sum(1) / self.weights.sum()
        bonus = torch.zeros((), dtype=torch.int64)
        while scores.mean() < self.target_mean and bonus < self.max_bonus:
            scores = torch.clamp(scores + 1.0, max=100.0)
            bonus = bonus + 1
        spread = scores.std()
        if spread > self.spread_limit:
            mean = scores.mean()
            scores = mean + (scores - mean) * (self.spread_limit / spread)
        return scores, bonus


def model():
    torch.manual_seed(0)
    return ExamGradeCurver().eval()


def _class(n, lo, hi, seed):
    g = torch.Generator().manual_seed(seed)
    ability = lo + (hi - lo) * torch.rand(n, 1, generator=g)
    noise = 0.15 * (torch.rand(n, NUM_QUESTIONS, generator=g) - 0.5)
    return ((ability + noise).clamp(0.0, 1.0),)


def example_inputs():
    return _class(30, 0.4, 0.95, 0)


def dynamic_shapes():
    S = torch.export.Dim("students", min=2, max=512)
    return ({0: S},)


def verify_inputs():
    return [
        _class(25, 0.70, 0.95, 1),   # strong class: no curve needed, narrow spread
        _class(40, 0.50, 0.80, 2),   # a few points of bonus reach the target
        _class(12, 0.10, 0.55, 3),   # weak class: bonus capped
        _class(30, 0.15, 1.00, 4),   # very wide spread gets compressed
        _class(20, 0.55, 0.85, 6),   # just below target: a single bonus point
    ]
