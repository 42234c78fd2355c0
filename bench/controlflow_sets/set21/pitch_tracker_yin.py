"""Guitar-tuner pitch tracker (YIN): difference function, CMND, first dip below threshold, local-min descent."""
import torch
from torch import nn
from torch.export import Dim


def parabolic_refine(c, tau):
    if tau >= c.shape[0] - 1:
        return torch.tensor(float(tau))   # minimum at the end of the lag range
    a, b, d = c[tau - 1], c[tau], c[tau + 1]
    return tau + 0.5 * (a - d) / (a - 2 * b + d + 1e-9)


class YinPitch(nn.Module):
    def __init__(self, sr=8000.0, thresh=0.15, tau_min=20):
        super().__init__()
        self.sr, self.thresh, self.tau_min = sr, thresh, tau_min
        self.conf = nn.Linear(2, 1)

    def forward(self, frame):
        T = frame.shape[0]
        W = T // 2
        frames = frame.unfold(0, W, 1)[: T - W]               # [T-W, W] lagged windows
        diff = ((frames - frame[:W]) ** 2).sum(1)              # d(tau), tau = 0..T-W-1
        tau_idx = torch.arange(diff.shape[0], dtype=torch.float32)
        cmnd = diff * tau_idx / torch.clamp(torch.cumsum(diff, 0), min=1e-9)
        n = cmnd.shape[0]
        cmnd = torch.cat([torch.ones(1), cmnd[1:], torch.full((1,), 2.0)])   # sentinel stops the descent
        for tau in range(self.tau_min, n):
            if cmnd[tau] < self.thresh:
                while cmnd[tau + 1] < cmnd[tau]:
                    tau += 1
                t_ref = parabolic_refine(cmnd[:n], tau)
                f0 = (self.sr / t_ref).view(1)
                c = torch.sigmoid(self.conf(torch.stack([cmnd[tau], f0[0] / 1000.0]).view(1, 2))).view(1)
                return f0, torch.ones(1), c
        return torch.zeros(1), torch.zeros(1), torch.zeros(1)


def model():
    torch.manual_seed(0)
    return YinPitch().eval()


def _tone(T, f0, noise, seed):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(T, dtype=torch.float32) / 8000.0
    x = torch.sin(2 * torch.pi * f0 * t) + 0.4 * torch.sin(2 * torch.pi * 2 * f0 * t + 0.3)
    return x + noise * torch.randn(T, generator=g)


def example_inputs():
    return (_tone(400, 196.3, 0.01, 1),)     # G3 string


def verify_inputs():
    return [
        (_tone(256, 329.2, 0.02, 2),),       # high E
        (torch.randn(300, generator=torch.Generator().manual_seed(3)),),   # noise: unvoiced
        (_tone(480, 110.0, 0.01, 4),),       # A2
        (_tone(300, 250.0, 0.27, 1),),       # noisy B3: first dip below threshold is already the minimum
        (_tone(128, 121.0, 0.01, 5),),       # short frame: the dip is still falling at the last lag
    ]


def dynamic_shapes():
    return ({0: Dim("samples", min=128, max=512)},)
