"""Generalised advantage estimation (GAE) for a rollout of one PPO worker.

A critic network scores every observation; advantages are accumulated backwards in
time, resetting the bootstrap at episode boundaries (done flags), and are normalised
when the rollout is long enough for the statistics to be meaningful.
"""
import torch
import torch.nn as nn


class Critic(nn.Module):
    def __init__(self, obs_dim=6, hidden=32):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.v = nn.Linear(hidden, 1)

    def forward(self, obs):
        return self.v(self.body(obs)).squeeze(-1)


class GAE(nn.Module):
    def __init__(self, gamma=0.97, lam=0.9, normalize=True, min_norm_len=8):
        super().__init__()
        self.critic = Critic()
        self.gamma = gamma
        self.lam = lam
        self.normalize = normalize
        self.min_norm_len = min_norm_len

    def forward(self, obs, rewards, dones, bootstrap_obs):
        values = self.critic(obs)
        next_value = self.critic(bootstrap_obs)[0]
        gae = torch.zeros(())
        advantages = []
        for t in reversed(range(obs.shape[0])):
            if dones[t]:
                # episode ended at t: nothing to bootstrap from
                next_value = torch.zeros(())
                gae = torch.zeros(())
            delta = rewards[t] + self.gamma * next_value - values[t]
            gae = delta + self.gamma * self.lam * gae
            advantages.append(gae)
            next_value = values[t]
        adv = torch.stack(advantages[::-1])
        returns = adv + values
        if self.normalize and adv.shape[0] >= self.min_norm_len:
            adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        return adv, returns


def model():
    torch.manual_seed(0)
    return GAE().eval()


def _rollout(g, T, done_at):
    obs = torch.randn(T, 6, generator=g)
    rewards = torch.rand(T, generator=g)
    dones = torch.zeros(T, dtype=torch.bool)
    for t in done_at:
        dones[t] = True
    return obs, rewards, dones, torch.randn(1, 6, generator=g)


def example_inputs():
    g = torch.Generator().manual_seed(1)
    return _rollout(g, 16, [5])


def dynamic_shapes():
    T = torch.export.Dim("T", min=2, max=512)
    return ({0: T}, {0: T}, {0: T}, None)


def verify_inputs():
    g = torch.Generator().manual_seed(2)
    return [
        _rollout(g, 4, []),            # short rollout, no episode end, no normalisation
        _rollout(g, 5, [4]),           # ends on the last step
        _rollout(g, 24, [3, 11, 12]),  # several episode ends, normalised
        _rollout(g, 9, [0]),
    ]
