"""On-site earthquake early warning: STA/LTA trigger on a 3-component accelerometer window; only
when triggered (and the P-wave picker agrees) the magnitude regressor runs."""
import torch
from torch import nn
import torch.nn.functional as F


class QuakeEW(nn.Module):
    def __init__(self):
        super().__init__()
        self.picker = nn.Conv1d(3, 8, 7, padding=3)
        self.pick_head = nn.Linear(8, 1)
        self.mag = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
        self.ratio_on = 3.0

    def forward(self, acc):
        # acc: (3, T) one station window
        energy = (acc ** 2).sum(dim=0, keepdim=True).unsqueeze(0)      # (1, 1, T)
        sta = F.avg_pool1d(energy, 4, 1)
        lta = F.avg_pool1d(energy, 16, 1)
        n = lta.shape[-1]
        ratio = sta[..., -n:] / (lta + 1e-3)
        feats = torch.relu(self.picker(acc.unsqueeze(0))).mean(dim=2)   # (1, 8)
        p_prob = torch.sigmoid(self.pick_head(feats)).squeeze()
        if not ((ratio.max() > self.ratio_on) and (p_prob > 0.3)):
            return torch.zeros(1), ratio.max().reshape(1)
        magnitude = 3.0 + F.softplus(self.mag(feats)).reshape(1) + torch.log1p(energy.max()).reshape(1)
        if magnitude > 5.0:
            magnitude = magnitude.clamp(max=9.0)
            return magnitude, torch.ones(1)
        return magnitude, torch.zeros(1) + 0.5


def model():
    torch.manual_seed(0)
    return QuakeEW().eval()


def _win(T, onset, amp):
    x = torch.full((3, T), 0.01)
    x[:, ::2] = -0.01
    x[:, T - onset:] = amp
    return x


def example_inputs():
    return (_win(100, 2, 1.0),)


def dynamic_shapes():
    return ({1: torch.export.Dim("samples", min=32, max=4000)},)


def verify_inputs():
    return [(_win(64, 1, 0.01),), (_win(200, 2, 100.0),), (_win(80, 8, 0.5),), (_win(120, 2, 0.5),)]
