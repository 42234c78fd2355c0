"""Motor bearing condition monitor: framed vibration features, CNN classifier, kurtosis/RMS rule overrides."""
import torch
import torch.nn.functional as F
from torch import nn
from torch.export import Dim


class BearingMonitor(nn.Module):
    HOP = 64

    def __init__(self, use_envelope=True):
        super().__init__()
        self.use_envelope = use_envelope
        self.blocks = nn.ModuleList([nn.Conv1d(6, 16, 3, padding=1), nn.Conv1d(16, 16, 3, padding=1)])
        self.cls = nn.Linear(16, 4)   # normal, imbalance, bearing fault, looseness

    def forward(self, vib):
        T = vib.shape[1]
        if T % self.HOP != 0:
            vib = F.pad(vib, (0, self.HOP - T % self.HOP))
        frames = vib.unfold(1, self.HOP, self.HOP)          # [2, F, 64]
        mu = frames.mean(-1, keepdim=True)
        rms = ((frames - mu) ** 2).mean(-1).sqrt()
        kurt = ((frames - mu) ** 4).mean(-1) / (rms ** 4 + 1e-6)
        if self.use_envelope:  # static
            env = frames.abs().amax(-1)
        else:
            env = rms
        h = torch.cat([rms, kurt / 10.0, env], 0).unsqueeze(0)    # [1, 6, F]
        for blk in self.blocks:  # static
            h = F.relu(blk(h))
        probs = F.softmax(self.cls(h.mean(-1)).squeeze(0), -1)
        if kurt.max() > 6.0:
            severity = (kurt.max() / 20.0).clamp(max=1.0).view(1)
            probs = 0.5 * probs + 0.5 * F.one_hot(torch.tensor(2), 4).float()
        elif rms.mean() > 2.0:
            severity = (rms.mean() / 10.0).clamp(max=1.0).view(1)
            probs = 0.5 * probs + 0.5 * F.one_hot(torch.tensor(1), 4).float()
        else:
            severity = torch.zeros(1)
        return probs, severity


def model():
    torch.manual_seed(0)
    return BearingMonitor().eval()


def _vib(T, amp, impulses, seed):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(T, dtype=torch.float32)
    x = amp * torch.sin(2 * torch.pi * t / 16.0) + 0.1 * torch.randn(2, T, generator=g)
    if impulses:
        x[:, ::97] += 12.0
    return x


def example_inputs():
    return (_vib(300, 1.0, True, 1),)


def verify_inputs():
    return [
        (_vib(256, 1.0, False, 2),),    # healthy, exact multiple of the hop
        (_vib(384, 4.0, False, 3),),    # strong 1x vibration -> imbalance
    ]


def dynamic_shapes():
    return ({1: Dim("samples", min=64, max=512)},)
