"""Particle filter for 2-D pedestrian tracking with a learned motion model (AR glasses / robot).

For each observation step (dynamic sequence length) particles are propagated by a small
MLP motion model plus fixed pseudo-noise, re-weighted by a Gaussian likelihood, and
resampled (systematic resampling helper) only when the effective sample size drops
below N/2. Missing detections (NaN rows) skip the update with `continue`.
Outputs: (T, 2) filtered positions and (T,) effective sample sizes.
"""

import torch
import torch.nn as nn
from torch.export import Dim


def systematic_resample(particles, weights, offset):
    n = weights.shape[0]
    positions = (torch.arange(n, dtype=weights.dtype) + offset) / n
    cdf = torch.cumsum(weights, 0)
    cdf = cdf / cdf[-1]
    idx = torch.searchsorted(cdf, positions).clamp(max=n - 1)
    return particles[idx], torch.full_like(weights, 1.0 / n)


class ParticleTracker(nn.Module):
    def __init__(self, n_particles=256, obs_sigma=0.3, noise_steps=16):
        super().__init__()
        self.motion = nn.Sequential(nn.Linear(4, 32), nn.Tanh(), nn.Linear(32, 4))
        g = torch.Generator().manual_seed(123)
        self.register_buffer("noise", 0.05 * torch.randn(noise_steps, n_particles, 4, generator=g))
        self.register_buffer(
            "init", torch.randn(n_particles, 4, generator=g) * torch.tensor([1.0, 1.0, 0.3, 0.3])
        )
        self.register_buffer("offsets", torch.rand(noise_steps, generator=g))
        self.obs_sigma = obs_sigma
        self.n = n_particles

    def forward(self, observations):
        particles = self.init.clone()
        weights = torch.full((self.n,), 1.0 / self.n)
        estimates, ess_hist = [], []
        for t in range(observations.shape[0]):
            k = t % self.noise.shape[0]
            # state = [x, y, vx, vy]; constant velocity + learned correction
            pos = particles[:, :2] + particles[:, 2:]
            particles = torch.cat([pos, particles[:, 2:]], 1) + 0.1 * self.motion(particles) + self.noise[k]
            z = observations[t]
            if torch.isnan(z).any():
                estimates.append((weights.unsqueeze(1) * particles[:, :2]).sum(0))
                ess_hist.append(1.0 / (weights * weights).sum())
                continue
            d2 = ((particles[:, :2] - z) ** 2).sum(1)
            logw = torch.log(weights) - 0.5 * d2 / self.obs_sigma**2
            weights = torch.softmax(logw, 0)
            ess = 1.0 / (weights * weights).sum()
            estimates.append((weights.unsqueeze(1) * particles[:, :2]).sum(0))
            ess_hist.append(ess)
            if ess < self.n / 2:
                particles, weights = systematic_resample(particles, weights, self.offsets[k])
        return torch.stack(estimates), torch.stack(ess_hist)


def model():
    torch.manual_seed(0)
    return ParticleTracker().eval()


def _walk(t, seed, missing=()):
    g = torch.Generator().manual_seed(seed)
    steps = 0.1 * torch.randn(t, 2, generator=g) + torch.tensor([0.2, 0.1])
    obs = torch.cumsum(steps, 0) + 0.05 * torch.randn(t, 2, generator=g)
    for i in missing:
        obs[i] = float("nan")
    return (obs,)


def example_inputs():
    return _walk(20, 1, missing=(5,))


def dynamic_shapes():
    return {"observations": {0: Dim("steps", min=2, max=128)}}


def verify_inputs():
    return [_walk(2, 2, missing=(0, 1)), _walk(60, 3), _walk(9, 4, missing=(3, 4, 8))]
