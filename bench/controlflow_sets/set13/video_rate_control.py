"""Frame-level rate control for a hardware video encoder (leaky-bucket buffer, QP adaptation).

A small net predicts each frame's coding cost from cheap lookahead statistics; a Python loop
over the frames updates the buffer and nudges the QP up or down.
"""

import torch
from torch import nn


class ComplexityNet(nn.Module):
    def __init__(self, feat: int = 12):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(feat, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, f: torch.Tensor) -> torch.Tensor:
        energy = f.pow(2).mean(-1)
        return energy * (0.5 + 0.5 * torch.sigmoid(self.net(f).squeeze(-1)))


class RateControl(nn.Module):
    def __init__(self, target_bits: float = 1.0, buffer_size: float = 4.0, use_scene_cut: bool = True):
        super().__init__()
        self.cx = ComplexityNet()
        self.target = target_bits
        self.buffer_size = buffer_size
        self.use_scene_cut = use_scene_cut

    def forward(self, feats: torch.Tensor):
        cost = self.cx(feats)  # (T,) bits at the reference QP
        buf = torch.tensor(0.5 * self.buffer_size)
        qp = torch.tensor(30.0)
        qps, bits = [], []
        for t in range(feats.shape[0]):
            frame_bits = cost[t] * torch.pow(2.0, (30.0 - qp) / 6.0)
            if self.use_scene_cut:  # static
                # scene cuts are coded as intra frames: bigger but expected
                frame_bits = frame_bits * 0.8
            buf = buf + frame_bits - self.target
            if buf.item() > 0.8 * self.buffer_size:
                qp = torch.clamp(qp + 2.0, max=51.0)
            elif buf.item() < 0.2 * self.buffer_size:
                qp = torch.clamp(qp - 1.0, min=10.0)
            buf = torch.clamp(buf, min=0.0)
            qps.append(qp)
            bits.append(frame_bits)
        return torch.stack(qps), torch.stack(bits), buf


def model() -> nn.Module:
    torch.manual_seed(0)
    return RateControl().eval()


def example_inputs() -> tuple:
    torch.manual_seed(1)
    return (torch.randn(16, 12),)


def dynamic_shapes():
    return ({0: torch.export.Dim("frames", min=2, max=128)},)


def verify_inputs() -> list:
    torch.manual_seed(2)
    return [
        (torch.randn(40, 12) * 2.5,),   # heavy content: buffer fills, QP goes up
        (torch.randn(7, 12) * 0.2,),    # static scene: buffer drains, QP goes down
        (torch.randn(2, 12),),          # shortest clip
    ]
