"""Tiny DDIM sampler for a conditional 1-D diffusion model with classifier-free guidance.

The number of denoising steps and the guidance scale arrive as tensors (as in an on-device pipeline).
"""

import math

import torch
from torch import nn

DIM, COND, T_TRAIN = 16, 4, 1000


def timestep_embedding(t, dim=32):
    half = dim // 2
    freqs = torch.exp(-math.log(10000.0) * torch.arange(half, dtype=torch.float32) / half)
    args = t.float().reshape(-1, 1) * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


class Denoiser(nn.Module):
    def __init__(self):
        super().__init__()
        self.t_mlp = nn.Sequential(nn.Linear(32, 64), nn.SiLU(), nn.Linear(64, 64))
        self.c_emb = nn.Linear(COND, 64)
        self.net = nn.Sequential(nn.Linear(DIM + 64, 128), nn.SiLU(), nn.LayerNorm(128), nn.Linear(128, DIM))

    def forward(self, x, t, cond):
        emb = self.t_mlp(timestep_embedding(t)).expand(x.shape[0], -1) + self.c_emb(cond)
        return self.net(torch.cat([x, emb], dim=-1))


class DDIMSampler(nn.Module):
    def __init__(self):
        super().__init__()
        self.denoiser = Denoiser()
        betas = torch.linspace(1e-4, 0.02, T_TRAIN)
        self.register_buffer("alphas_cumprod", torch.cumprod(1.0 - betas, dim=0))

    def predict_eps(self, x, t, cond, guidance):
        if guidance > 1.0:
            eps_c = self.denoiser(x, t, cond)
            eps_u = self.denoiser(x, t, torch.zeros_like(cond))
            return eps_u + guidance * (eps_c - eps_u)
        return self.denoiser(x, t, cond)

    def forward(self, noise, cond, num_steps, guidance):
        x = noise
        n = int(num_steps.item())
        stride = T_TRAIN // max(n, 1)
        for i in range(n):
            t = torch.tensor(T_TRAIN - 1 - i * stride)
            t_prev = t - stride
            a_t = self.alphas_cumprod[t]
            a_prev = self.alphas_cumprod[t_prev] if t_prev >= 0 else torch.tensor(1.0)
            eps = self.predict_eps(x, t, cond, guidance)
            x0 = ((x - (1 - a_t).sqrt() * eps) / a_t.sqrt()).clamp(-3.0, 3.0)
            x = a_prev.sqrt() * x0 + (1 - a_prev).sqrt() * eps
        return x


def model():
    torch.manual_seed(0)
    return DDIMSampler().eval()


def example_inputs():
    torch.manual_seed(1)
    return (torch.randn(2, DIM), torch.randn(2, COND), torch.tensor(10), torch.tensor(3.0))


def verify_inputs():
    g = torch.Generator().manual_seed(2)
    return [
        (
            torch.randn(2, DIM, generator=g),
            torch.randn(2, COND, generator=g),
            torch.tensor(0),
            torch.tensor(3.0),
        ),
        (
            torch.randn(2, DIM, generator=g),
            torch.randn(2, COND, generator=g),
            torch.tensor(1),
            torch.tensor(1.0),
        ),
        (
            torch.randn(2, DIM, generator=g),
            torch.randn(2, COND, generator=g),
            torch.tensor(4),
            torch.tensor(7.5),
        ),
        (
            torch.randn(2, DIM, generator=g),
            torch.randn(2, COND, generator=g),
            torch.tensor(25),
            torch.tensor(0.0),
        ),
        (
            torch.randn(2, DIM, generator=g),
            torch.randn(2, COND, generator=g),
            torch.tensor(3),
            torch.tensor(1.5),
        ),
    ]
