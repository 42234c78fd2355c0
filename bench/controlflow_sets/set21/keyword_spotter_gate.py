"""Always-on keyword spotter: MFCC frames -> keyword posteriors, with pad-to-window and an energy gate."""
import torch
import torch.nn.functional as F
from torch import nn
from torch.export import Dim


class KeywordSpotter(nn.Module):
    MIN_FRAMES = 32
    HOP = 8

    def __init__(self, n_mfcc=13, n_kw=4, use_energy_gate=True):
        super().__init__()
        self.conv1 = nn.Conv1d(n_mfcc, 24, 3, padding=1)
        self.conv2 = nn.Conv1d(24, 24, 3, padding=1, stride=2)
        self.cls = nn.Linear(24, n_kw + 1)
        self.use_energy_gate = use_energy_gate
        sil = torch.full((n_kw + 1,), -8.0)
        sil[-1] = 8.0
        self.register_buffer("silence_logits", sil)

    def forward(self, mfcc):
        T = mfcc.shape[0]
        if T < self.MIN_FRAMES:
            mfcc = F.pad(mfcc, (0, 0, 0, self.MIN_FRAMES - T))
        elif T % self.HOP != 0:
            mfcc = F.pad(mfcc, (0, 0, 0, self.HOP - T % self.HOP))
        if self.use_energy_gate:  # static
            energy = mfcc[:T, 0].mean()
            if energy < -2.0:
                return F.softmax(self.silence_logits, -1)
        h = F.relu(self.conv1(mfcc.t().unsqueeze(0)))
        h = F.relu(self.conv2(h))
        logits = self.cls(h.mean(-1)).squeeze(0)
        return F.softmax(logits, -1)


def model():
    torch.manual_seed(0)
    return KeywordSpotter().eval()


def _mfcc(T, energy, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(T, 13, generator=g) * 0.5
    x[:, 0] = energy + 0.1 * torch.sin(torch.arange(T, dtype=torch.float32))
    return x


def example_inputs():
    return (_mfcc(50, 1.0, 1),)


def verify_inputs():
    return [
        (_mfcc(20, 0.5, 2),),    # short utterance -> pad to 32
        (_mfcc(64, 1.5, 3),),    # multiple of hop -> no padding
        (_mfcc(40, -4.0, 4),),   # silence -> energy gate
    ]


def dynamic_shapes():
    return ({0: Dim("frames", min=8, max=400)},)
