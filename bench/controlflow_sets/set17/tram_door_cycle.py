"""Tram door cycle monitor: door current trace -> phase state machine, obstruction retries (tricky)."""
import torch
from torch import nn


class DoorMonitor(nn.Module):
    def __init__(self):
        super().__init__()
        self.health = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
        self.obstruct_amps = 6.0
        self.max_retries = 2

    def forward(self, current: torch.Tensor):
        # current: [T] motor current (A) over one close cycle, T dynamic
        retries = 0
        peaks = []
        moving = current > 0.5
        if not moving.any():
            return torch.tensor(0), torch.zeros(0), torch.zeros(())
        for t in range(current.shape[0]):
            c = current[t]
            if not moving[t]:
                continue
            if c > self.obstruct_amps:
                peaks.append(c)
                retries += 1
                if retries > self.max_retries:
                    break
        if len(peaks) > 0:
            pk = torch.stack(peaks)
        else:
            pk = torch.zeros(0)
        feats = torch.stack([current.mean(), current.max(), moving.float().mean(), torch.tensor(float(retries))])
        return torch.tensor(retries), pk, self.health(feats).squeeze(-1)


def model():
    torch.manual_seed(25)
    return DoorMonitor().eval()


def _trace(T, spikes):
    x = torch.zeros(T)
    x[2:T - 2] = 2.0
    for s in spikes:
        x[s] = 8.0
    return x


def example_inputs():
    return (_trace(30, [10]),)


def dynamic_shapes():
    return ({0: torch.export.Dim("T", min=8, max=1000)},)


def verify_inputs():
    return [(_trace(40, []),), (_trace(25, [5, 8, 12, 15]),), (torch.zeros(12),)]
