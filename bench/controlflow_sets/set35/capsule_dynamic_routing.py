"""Capsule network (Sabour et al. style) for small grayscale symbol crops:
primary capsules from a strided conv, then a stack of capsule layers connected
by routing-by-agreement. Each routing layer stops early once the agreement
updates become negligible (faint / empty crops), and large crops are pooled
before the primary capsules.

Input: images [B, 1, H, W].
Outputs: class capsule lengths [B, 5], class capsule poses [B, 5, 8].
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def squash(s, dim=-1, eps=1e-8):
    n2 = (s * s).sum(dim, keepdim=True)
    return (n2 / (1.0 + n2)) * s / torch.sqrt(n2 + eps)


class PrimaryCaps(nn.Module):
    def __init__(self, caps=4, dim=6, max_side=32):
        super().__init__()
        self.caps = caps
        self.dim = dim
        self.max_side = max_side
        self.conv = nn.Conv2d(1, caps * dim, 5, stride=2, bias=False)

    def forward(self, x):
        if x.shape[-2] > self.max_side or x.shape[-1] > self.max_side:
            x = F.avg_pool2d(x, 2)
        u = self.conv(x)
        b, _, h, w = u.shape
        u = u.view(b, self.caps, self.dim, h, w).permute(0, 1, 3, 4, 2).reshape(b, -1, self.dim)
        return squash(u)


class RoutingCaps(nn.Module):
    def __init__(self, in_dim, out_caps, out_dim, iters=3, tol=1e-3, w_scale=0.5):
        super().__init__()
        self.iters = iters
        self.tol = tol
        self.W = nn.Parameter(w_scale * torch.randn(out_caps, out_dim, in_dim))

    def forward(self, u):
        u_hat = torch.einsum("bni,jdi->bnjd", u, self.W)
        logits = u.new_zeros(u_hat.shape[:3])
        v = None
        for it in range(self.iters):
            c = logits.softmax(dim=2)
            v = squash((c.unsqueeze(-1) * u_hat).sum(dim=1))
            if it == self.iters - 1:
                break
            agreement = (u_hat * v.unsqueeze(1)).sum(dim=-1)
            logits = logits + agreement
            if agreement.abs().max() < self.tol:
                # couplings will not move any more
                break
        return v


class CapsNet(nn.Module):
    def __init__(self, n_classes=5):
        super().__init__()
        self.primary = PrimaryCaps()
        self.layers = nn.ModuleList([RoutingCaps(6, 8, 8), RoutingCaps(8, n_classes, 8, w_scale=3.0)])

    def forward(self, images):
        caps = self.primary(images)
        for layer in self.layers:
            caps = layer(caps)
        lengths = caps.norm(dim=-1)
        return lengths, caps


def model():
    torch.manual_seed(10)
    return CapsNet().eval()


def _symbols(b, h, w, seed, scale=1.0):
    g = torch.Generator().manual_seed(seed)
    rows = torch.arange(h, dtype=torch.float32).view(h, 1)
    cols = torch.arange(w, dtype=torch.float32).view(1, w)
    imgs = []
    for _ in range(b):
        cy, cx = torch.rand(2, generator=g) * 0.5 + 0.25
        stroke = torch.exp(-(((rows / h - cy) ** 2) / 0.01 + ((cols / w - cx) ** 2) / 0.05))
        imgs.append(stroke + 0.1 * torch.rand(h, w, generator=g))
    return (scale * torch.stack(imgs).unsqueeze(1),)


def example_inputs():
    return _symbols(2, 28, 28, seed=1)


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=2, max=16),
             2: torch.export.Dim("height", min=12, max=64),
             3: torch.export.Dim("width", min=12, max=64)},)


def verify_inputs():
    return [
        example_inputs(),  # no pooling; full routing iterations in both layers (static break on last iter)
        _symbols(3, 48, 20, seed=2),  # H > 32 -> pooled (first operand)
        _symbols(2, 16, 40, seed=3),  # W > 32 only -> pooled (second operand)
        _symbols(4, 20, 20, seed=4, scale=1e-3),  # faint crops: agreement below tol -> early break
        (torch.zeros(2, 1, 12, 12),),  # blank crops, min size: zero agreement -> early break
    ]
