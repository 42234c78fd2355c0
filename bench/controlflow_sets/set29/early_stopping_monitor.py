"""Early-stopping monitor for a training run.

A small residual MLP denoises the per-epoch validation loss from logged statistics
(observed val loss, train loss, gradient norm, optimizer steps in hundreds); the monitor then replays the
run with patience-based early stopping and reports the epoch whose checkpoint to keep.
Evaluation-only epochs (no optimizer steps, e.g. after a restart) are skipped.
"""
import torch
from torch import nn


class ResidualBlock(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.fc1 = nn.Linear(dim, dim)
        self.fc2 = nn.Linear(dim, dim)

    def forward(self, x):
        return x + self.fc2(torch.tanh(self.fc1(x)))


class EarlyStoppingMonitor(nn.Module):
    def __init__(self, patience=3, min_delta=0.02, hidden=16):
        super().__init__()
        self.patience = patience
        self.min_delta = min_delta
        self.inp = nn.Linear(4, hidden)
        self.blocks = nn.ModuleList([ResidualBlock(hidden) for _ in range(2)])
        self.out = nn.Linear(hidden, 1)

    def smooth(self, logs):
        h = self.inp(logs)
        for block in self.blocks:
            h = block(h)
        if self.training:
            h = nn.functional.dropout(h, 0.1)
        # bounded correction of the observed validation loss
        return logs[:, 0] + 0.005 * torch.tanh(self.out(h)[:, 0])

    def forward(self, logs):
        # logs: [epochs, 4] = val_loss, train_loss, grad_norm, steps / 100
        val = self.smooth(logs)
        best = val[0]
        best_epoch = 0
        wait = 0
        stopped_at = logs.shape[0] - 1
        for epoch in range(1, logs.shape[0]):
            if logs[epoch, 3] < 0.5:
                continue
            cur = val[epoch]
            if cur < best - self.min_delta:
                best = cur
                best_epoch = epoch
                wait = 0
            else:
                wait += 1
                if wait >= self.patience:
                    stopped_at = epoch
                    break
        return val, best, torch.tensor([best_epoch, stopped_at])


def model():
    torch.manual_seed(0)
    return EarlyStoppingMonitor().eval()


def _make_logs(curve, seed, eval_only=()):
    g = torch.Generator().manual_seed(seed)
    val = torch.tensor(curve)
    e = val.shape[0]
    train = val * 0.8 + 0.01 * torch.rand(e, generator=g)
    gnorm = 1.0 + torch.rand(e, generator=g)
    steps = torch.full((e,), 3.2)
    for i in eval_only:
        steps[i] = 0.0
    return torch.stack([val, train, gnorm, steps], dim=1)


def example_inputs():
    return (_make_logs([2.0, 1.6, 1.3, 1.2, 1.15, 1.1, 1.12, 1.11, 1.13, 1.14], 0),)


def dynamic_shapes():
    return ({0: torch.export.Dim("epochs", min=3, max=128)},)


def verify_inputs():
    return [
        # steady improvement, never stops early
        (_make_logs([1.0, 0.9, 0.8, 0.7, 0.6], 1),),
        # plateau -> patience exhausted -> break
        (_make_logs([1.0, 0.7, 0.695, 0.69, 0.7, 0.71, 0.5, 0.4], 2),),
        # evaluation-only epoch skipped, then a late improvement
        (_make_logs([1.0, 0.5, 0.99, 0.97, 0.6, 0.45], 3, eval_only=(1,)),),
        # short run
        (_make_logs([1.0, 1.1, 0.9], 4),),
        example_inputs(),
    ]
