"""VLF metal detector target identification.

The receive coil signal is demodulated into I/Q against the transmit phase.
As the coil sweeps over a target the amplitude rises and falls; the phase at
the peak gives the conductivity-dependent target ID (VDI), the amplitude
profile gives a depth estimate.  Iron can be discriminated out (notched)
through a user setting.  Long sweeps are decimated first.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class TargetID(nn.Module):
    def __init__(self, discriminate_iron=True, min_signal=0.05, decimate_above=256):
        super().__init__()
        self.discriminate_iron = discriminate_iron
        self.min_signal = min_signal
        self.decimate_above = decimate_above
        self.depth_head = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 1), nn.Softplus())
        # VDI bin edges: iron | foil/nickel | gold/pull-tab | zinc/brass | silver/copper
        self.register_buffer("vdi_edges", torch.tensor([-20.0, 10.0, 40.0, 70.0]))

    def forward(self, iq):
        if iq.shape[0] > self.decimate_above:
            iq = F.avg_pool1d(iq.t().unsqueeze(0), kernel_size=4).squeeze(0).t()
        amp = iq.norm(dim=1)
        peak_amp = amp.max()
        no_target = (torch.tensor(-99.0), torch.tensor(-1), torch.zeros(1))
        if peak_amp < self.min_signal:
            return no_target

        k = amp.argmax()
        phase = torch.atan2(iq[k, 1], iq[k, 0]) * (180.0 / math.pi)
        vdi = phase.clamp(-95.0, 95.0)
        if self.discriminate_iron and vdi < self.vdi_edges[0]:
            return vdi, torch.tensor(0), torch.zeros(1)

        if vdi < self.vdi_edges[1]:
            cls = torch.tensor(1)
        elif vdi < self.vdi_edges[2]:
            cls = torch.tensor(2)
        elif vdi < self.vdi_edges[3]:
            cls = torch.tensor(3)
        else:
            cls = torch.tensor(4)

        width = (amp > 0.5 * peak_amp).float().mean()
        feats = torch.stack([peak_amp.log(), width, vdi / 95.0])
        depth_cm = self.depth_head(feats)
        return vdi, cls, depth_cm


def model():
    torch.manual_seed(64)
    return TargetID().eval()


def _sweep(n, amp, phase_deg, width=0.08, seed=0):
    g = torch.Generator().manual_seed(seed)
    t = torch.linspace(0, 1, n)
    env = amp * torch.exp(-((t - 0.4537) / width) ** 2)
    ph = math.radians(phase_deg)
    iq = torch.stack([env * math.cos(ph), env * math.sin(ph)], dim=1)
    return iq + 0.001 * torch.randn(n, 2, generator=g)


def example_inputs():
    return (_sweep(128, 0.8, 25.0),)


def dynamic_shapes():
    s = torch.export.Dim("samples", min=16, max=2048)
    return ({0: s},)


def verify_inputs():
    return [
        example_inputs(),                       # gold / pull-tab bin (10..40)
        (_sweep(64, 0.01, 50.0, seed=1),),      # signal below min_signal -> early return "no target"
        (_sweep(200, 1.5, -60.0, seed=2),),     # iron, notched out -> early return inside discrimination branch
        (_sweep(96, 0.6, -5.0, seed=3),),       # foil / nickel bin (< 10), not iron
        (_sweep(512, 0.3, 55.0, seed=4),),      # long sweep -> decimation branch; zinc/brass bin
        (_sweep(1024, 2.0, 82.0, seed=5),),     # long sweep, silver/copper bin (else)
        (_sweep(16, 0.9, 30.0, width=0.3, seed=6),),  # shortest sweep, wide target
    ]
