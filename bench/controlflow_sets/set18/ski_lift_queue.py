"""Ski-lift queue estimator: per-minute gate counts are padded to whole 8-minute windows, encoded,
and the wait estimate is returned in minutes (or a closed-lift flag)."""
import torch
from torch import nn
import torch.nn.functional as F

WIN = 8


class LiftQueue(nn.Module):
    def __init__(self):
        super().__init__()
        self.win = nn.Linear(WIN * 2, 16)
        self.head = nn.Linear(16, 1)

    def forward(self, counts, open_flag):
        # counts: (T, 2) [arrivals, boardings] per minute; open_flag: bool scalar
        T = counts.shape[0]
        if T % WIN != 0:
            counts = F.pad(counts, (0, 0, 0, WIN - T % WIN))
        windows = counts.reshape(-1, WIN * 2)
        h = torch.relu(self.win(windows))
        backlog = (counts[:, 0] - counts[:, 1]).sum().clamp_min(0.0)
        rate = counts[:, 1].mean()
        if not open_flag:
            return torch.zeros(1), h.mean(dim=0)
        wait = backlog / rate if rate > 0.5 else backlog * 2.0
        wait = wait + self.head(h.mean(dim=0))
        return wait, h.mean(dim=0)


def model():
    torch.manual_seed(0)
    return LiftQueue().eval()


def example_inputs():
    torch.manual_seed(1)
    c = torch.rand(20, 2) * 10
    return (c, torch.tensor(True))


def dynamic_shapes():
    return ({0: torch.export.Dim("minutes", min=2, max=480)}, None)


def verify_inputs():
    slow = torch.zeros(16, 2)
    slow[:, 0] = 3.0
    slow[:, 1] = 0.1
    torch.manual_seed(2)
    return [(slow, torch.tensor(True)), (torch.rand(13, 2) * 5, torch.tensor(False)),
            (torch.rand(32, 2) * 5, torch.tensor(True))]
