"""Successive-halving hyperparameter search over a learned learning-curve model.

Each round the surviving configurations are "trained" for the current budget (the loss is
predicted by a small learning-curve network), the best third survives and the budget
triples.  The search stops early when some configuration already reaches the target loss,
and otherwise when two finalists remain, which are then compared at the largest budget.
"""
import math

import torch
from torch import nn


class LearningCurve(nn.Module):
    def __init__(self, feats, hidden=16):
        super().__init__()
        self.curve = nn.ModuleList([nn.Linear(feats + 1, hidden), nn.Linear(hidden, hidden)])
        self.head = nn.Linear(hidden, 2)
        self.optimum = nn.Parameter(torch.linspace(-0.5, 0.5, feats))

    def forward(self, configs, budget):
        b = torch.full((configs.shape[0], 1), math.log(budget))
        h = torch.cat([configs, b], dim=1)
        for layer in self.curve:
            h = torch.tanh(layer(h))
        asym, scale = self.head(h).unbind(-1)
        dist2 = ((configs - self.optimum) ** 2).sum(-1)
        final = 0.2 + 0.1 * dist2 + 0.1 * torch.nn.functional.softplus(asym)
        return final + torch.exp(0.5 * torch.tanh(scale)) * (1.0 + 0.2 * dist2) / budget


class SuccessiveHalvingTuner(nn.Module):
    def __init__(self, feats=4, eta=3, min_budget=1.0, max_budget=81.0, target=0.4, divergence=5.0):
        super().__init__()
        self.eta = eta
        self.min_budget = min_budget
        self.max_budget = max_budget
        self.target = target
        self.divergence = divergence
        self.model = LearningCurve(feats)

    def evaluate(self, configs, budget):
        loss = self.model(configs, budget)
        diverged = loss > self.divergence
        if diverged.any():
            # diverged runs are reported at the cap
            loss = torch.where(diverged, torch.full_like(loss, self.divergence), loss)
        return loss

    def forward(self, configs):
        # configs: [N, feats] normalised hyperparameters
        ids = torch.arange(configs.shape[0])
        budget = self.min_budget
        rounds = 0
        while configs.shape[0] > 2:
            loss = self.evaluate(configs, budget)
            if loss.min() < self.target:
                best = loss.argmin()
                return ids[best], loss[best], torch.tensor(budget), torch.tensor(rounds)
            keep = max(2, configs.shape[0] // self.eta)
            order = torch.topk(-loss, keep).indices
            configs, ids = configs[order], ids[order]
            budget = min(budget * self.eta, self.max_budget)
            rounds += 1
        final = self.evaluate(configs, self.max_budget)
        best = final.argmin()
        return ids[best], final[best], torch.tensor(self.max_budget), torch.tensor(rounds)


def model():
    torch.manual_seed(0)
    return SuccessiveHalvingTuner().eval()


def _make(n, seed, scale=1.0, near_optimum=0):
    g = torch.Generator().manual_seed(seed)
    configs = torch.randn(n, 4, generator=g) * scale
    if near_optimum:
        configs[:near_optimum] = torch.linspace(-0.5, 0.5, 4) + 0.05 * torch.randn(near_optimum, 4, generator=g)
    return (configs,)


def example_inputs():
    return _make(9, 0)


def dynamic_shapes():
    return ({0: torch.export.Dim("configs", min=2, max=81)},)


def verify_inputs():
    return [
        _make(2, 1),              # already two finalists: zero rounds
        _make(5, 2),              # one round
        _make(27, 3),             # several rounds, target reached early
        _make(6, 4, scale=1.6),   # wild configs, some diverge
        _make(12, 5, near_optimum=1),  # near-optimal config wins the final
        example_inputs(),
    ]
