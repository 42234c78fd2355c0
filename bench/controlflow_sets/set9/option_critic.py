"""Option-critic policy for a warehouse robot (hierarchical RL, acting step).

Given the observation and the currently running option, the termination head decides
whether the option ends; if so a new option is chosen greedily from Q_Omega, otherwise
the current option is kept (variable keeps its pre-if value). The intra-option policy
is selected by looping over an nn.ModuleList and comparing the index with the option
tensor. Exploration only happens in training (`self.training`, plain Python).
Outputs: action probabilities (1, A), option (1,) int64, termination prob (1,).
"""

import torch
import torch.nn as nn


class IntraOptionPolicy(nn.Module):
    def __init__(self, feat, n_actions, temperature=1.0):
        super().__init__()
        self.fc = nn.Linear(feat, n_actions)
        self.temperature = temperature

    def forward(self, h):
        return (self.fc(h) / self.temperature).softmax(-1)


class OptionCritic(nn.Module):
    def __init__(self, obs_dim=10, n_options=4, n_actions=5, eps=0.1):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
        self.q_option = nn.Linear(64, n_options)
        self.termination = nn.Linear(64, n_options)
        self.policies = nn.ModuleList(
            [IntraOptionPolicy(64, n_actions, 0.5 + 0.25 * i) for i in range(n_options)]
        )
        self.eps = eps

    def forward(self, obs, option):
        h = self.body(obs)
        beta = torch.sigmoid(self.termination(h))[0, option]  # (1,)
        if beta.item() > 0.5:
            q = self.q_option(h)[0]
            if self.training and torch.rand(()) < self.eps:  # static: eval mode
                option = torch.randint(0, q.shape[0], (1,))
            else:
                option = q.argmax().view(1)
        probs = torch.zeros(1, self.policies[0].fc.out_features)
        for i, pi in enumerate(self.policies):
            if option.item() == i:
                probs = pi(h)
        return probs, option, beta


def model():
    torch.manual_seed(0)
    m = OptionCritic()
    with torch.no_grad():
        m.termination.weight.mul_(6.0)
    return m.eval()


def _obs(seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(1, 10, generator=g)


def example_inputs():
    return (_obs(1), torch.tensor([2]))


def verify_inputs():
    return [(_obs(s), torch.tensor([o])) for s, o in [(2, 0), (3, 1), (4, 3), (5, 2), (6, 1), (7, 0)]]
