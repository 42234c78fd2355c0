"""RL policy with action masking: no legal action -> no-op, exactly one -> take it, else masked argmax.

if/elif/else with return inside branches, `not` on any(), .item() comparison, self.training
(plain Python, eval mode) for exploration noise.
"""

import torch
from torch import nn

OBS, ACTIONS = 12, 6


class MaskedPolicy(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(OBS, 64), nn.Tanh(), nn.Linear(64, ACTIONS))
        self.noop = ACTIONS  # index past the last real action

    def forward(self, obs, legal):
        if not legal.any():
            return torch.tensor(self.noop)
        if legal.sum().item() == 1:
            return legal.float().argmax()
        logits = self.body(obs)
        if self.training:
            logits = logits + torch.randn_like(logits)
        logits = logits.masked_fill(~legal, float("-inf"))
        return logits.argmax()


def model():
    torch.manual_seed(0)
    return MaskedPolicy().eval()


def example_inputs():
    torch.manual_seed(1)
    return (torch.randn(OBS), torch.tensor([True, False, True, True, False, True]))


def verify_inputs():
    torch.manual_seed(8)
    obs = torch.randn(OBS)
    return [
        (obs, torch.zeros(ACTIONS, dtype=torch.bool)),  # no legal action -> no-op
        (obs, torch.tensor([False, False, False, True, False, False])),  # single legal action
        (obs, torch.ones(ACTIONS, dtype=torch.bool)),  # masked argmax, all legal
        (obs, torch.tensor([True, False, False, True, True, False])),
    ]
