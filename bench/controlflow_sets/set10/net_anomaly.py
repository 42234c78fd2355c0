"""Network traffic anomaly detector: 1-D conv autoencoder over per-second flow
features of a variable-length window, plus a hard rule for packet bursts."""
import torch
from torch import nn
import torch.nn.functional as F


class FlowAE(nn.Module):
    def __init__(self, feats=6, normalize=True):
        super().__init__()
        self.normalize = normalize
        self.enc1 = nn.Conv1d(feats, 16, 3, stride=2, padding=1)
        self.enc2 = nn.Conv1d(16, 8, 3, stride=2, padding=1)
        self.dec1 = nn.ConvTranspose1d(8, 16, 4, stride=2, padding=1)
        self.dec2 = nn.ConvTranspose1d(16, feats, 4, stride=2, padding=1)
        self.register_buffer("mu", torch.zeros(feats))
        self.register_buffer("sigma", torch.ones(feats) * 2.0)
        self.thr = 1.5
        self.burst_pps = 5000.0

    def forward(self, flows):
        # flows: (B, T, F); column 0 is packets per second
        B, T, Fdim = flows.shape
        x = flows
        if self.normalize:  # static
            x = ((x - self.mu) / self.sigma).clamp(-3.0, 3.0)   # clip outliers before the AE
        x = x.transpose(1, 2)
        pad = 0
        if T % 4 != 0:
            pad = 4 - T % 4
            x = F.pad(x, (0, pad), mode="replicate")
        h = F.relu(self.enc1(x))
        h = F.relu(self.enc2(h))
        r = F.relu(self.dec1(h))
        r = self.dec2(r)
        err = ((r - x) ** 2).mean(dim=1)[:, :T]       # (B, T)
        score = err.mean()
        burst = flows[..., 0] > self.burst_pps
        if score > self.thr or burst.any():
            flag = torch.ones(B)
        else:
            flag = torch.zeros(B)
        return flag, err


def model():
    torch.manual_seed(0)
    return FlowAE().eval()


def example_inputs():
    torch.manual_seed(1)
    return (torch.randn(2, 16, 6) * 0.5,)


def dynamic_shapes():
    return ({1: torch.export.Dim("T", min=2, max=128)},)


def verify_inputs():
    torch.manual_seed(5)
    burst = torch.randn(2, 13, 6) * 0.5
    burst[1, 7, 0] = 9000.0
    return [
        (torch.randn(2, 13, 6) * 0.5,),      # padding, normal
        (burst,),                            # padding, burst rule
        (torch.randn(2, 24, 6) * 6.0,),      # high reconstruction error
        (torch.randn(2, 3, 6) * 0.5,),
    ]
