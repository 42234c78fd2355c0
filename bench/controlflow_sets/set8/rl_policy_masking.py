"""DQN-style policy for a grid game with legal-action masking, a fallback action and value clipping."""

import torch
from torch import nn

N_ACTIONS, NOOP = 6, 0


class QNetwork(nn.Module):
    def __init__(self, dueling: bool = True):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(4, 16, 3, padding=1),
            nn.ReLU(),
            nn.Conv2d(16, 16, 3, stride=2, padding=1),
            nn.ReLU(),
            nn.AdaptiveAvgPool2d(2),
            nn.Flatten(),
        )
        self.value = nn.Linear(64, 1)
        self.adv = nn.Linear(64, N_ACTIONS)
        self.dueling = dueling

    def forward(self, obs):
        f = self.features(obs)
        adv = self.adv(f)
        return self.value(f) + adv - adv.mean(-1, keepdim=True) if self.dueling else adv


class Agent(nn.Module):
    def __init__(self, v_max: float = 10.0):
        super().__init__()
        self.q = QNetwork()
        self.v_max = v_max

    def forward(self, obs, legal):  # obs (1, 4, H, W), legal (1, N_ACTIONS) bool
        q = self.q(obs)[0]
        legal = legal[0]
        if not legal.any():
            return torch.tensor(NOOP), torch.zeros(()), q
        masked = torch.where(legal, q, torch.full_like(q, -1e9))
        action = masked.argmax()
        best = masked.max()
        # clip the bootstrap value reported to the planner; NaN-safe
        value = best.clamp(-self.v_max, self.v_max) if best.abs() > self.v_max or torch.isnan(best) else best
        if legal.all() or legal.sum() == 1:
            value = value * 1.0
        else:
            value = value - 0.01 * (~legal).sum()
        return action, value, q


def model():
    torch.manual_seed(0)
    net = Agent()
    with torch.no_grad():
        nn.init.normal_(net.q.adv.weight, std=1.0)
    return net.eval()


def _obs(seed, scale=1.0, h=12, w=12):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(1, 4, h, w, generator=g) * scale


def _legal(bits):
    return torch.tensor([bits], dtype=torch.bool)


def example_inputs():
    return (_obs(1), _legal([1, 1, 0, 1, 0, 1]))


def dynamic_shapes():
    return ({2: torch.export.Dim("h", min=4, max=64), 3: torch.export.Dim("w", min=4, max=64)}, None)


def verify_inputs():
    return [
        (_obs(2), _legal([0, 0, 0, 0, 0, 0])),  # no legal action: early return
        (_obs(3, h=64, w=40), _legal([1, 1, 1, 1, 1, 1])),  # all legal
        (_obs(4, h=4, w=4), _legal([0, 0, 0, 1, 0, 0])),  # a single legal action
        (_obs(5, 200.0), _legal([1, 0, 1, 0, 1, 0])),  # large Q values: clipped
        (_obs(6), _legal([0, 1, 1, 0, 0, 1])),
    ]
