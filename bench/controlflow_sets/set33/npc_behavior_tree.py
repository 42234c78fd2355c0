"""Behaviour tree for squad NPCs in a shooter, evaluated per agent each tick.

obs: [A, 6] per-agent observation (A dynamic):
     [health 0..1, enemy distance m, ammo rounds, enemy visible 0/1,
      distance to cover m, aim stability 0..1].
The tree is built from nn.Module nodes (Selector / Sequence / Condition /
Action) whose forward methods short-circuit on tensor conditions.  Dead agents
are skipped; agents for whom no branch succeeds fall back to an idle policy.
Returns (action id per agent [A], movement command per agent [A, 3]).
"""
import torch
import torch.nn as nn
from torch.export import Dim

HEALTH, ENEMY_DIST, AMMO, VISIBLE, COVER_DIST, AIM = range(6)


class Condition(nn.Module):
    def __init__(self, feature, threshold, above):
        super().__init__()
        self.feature, self.threshold, self.above = feature, threshold, above

    def forward(self, obs):
        value = obs[self.feature]
        ok = value > self.threshold if self.above else value < self.threshold
        return ok, torch.zeros(3), torch.tensor(-1)


class Action(nn.Module):
    def __init__(self, action_id, needs_aim=False):
        super().__init__()
        self.action_id = action_id
        self.needs_aim = needs_aim
        self.policy = nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 3))
        self.aim = nn.Linear(6, 1)

    def forward(self, obs):
        if self.needs_aim:  # static
            # learned shot-quality estimate: refuse to shoot when the shot is poor
            quality = torch.sigmoid(0.1 * self.aim(obs) + 6.0 * (obs[AIM] - 0.5))
            if quality.squeeze(0) < 0.5:
                return torch.tensor(False), torch.zeros(3), torch.tensor(-1)
        move = torch.tanh(self.policy(obs))
        return torch.tensor(True), move, torch.tensor(self.action_id)


class Sequence(nn.Module):
    def __init__(self, *nodes):
        super().__init__()
        self.nodes = nn.ModuleList(nodes)

    def forward(self, obs):
        move, act = torch.zeros(3), torch.tensor(-1)
        for node in self.nodes:
            ok, move, act = node(obs)
            if not ok:
                return torch.tensor(False), move, act
        return torch.tensor(True), move, act


class Selector(nn.Module):
    def __init__(self, *nodes):
        super().__init__()
        self.nodes = nn.ModuleList(nodes)

    def forward(self, obs):
        for node in self.nodes:
            ok, move, act = node(obs)
            if ok:
                return ok, move, act
        return torch.tensor(False), torch.zeros(3), torch.tensor(-1)


class SquadAI(nn.Module):
    def __init__(self):
        super().__init__()
        self.root = Selector(
            Sequence(Condition(HEALTH, 0.3, above=False), Condition(COVER_DIST, 8.0, above=False), Action(1)),
            Sequence(Condition(VISIBLE, 0.5, above=True), Condition(AMMO, 0.5, above=True), Action(2, needs_aim=True)),
            Sequence(Condition(ENEMY_DIST, 40.0, above=False), Condition(AMMO, 0.5, above=True), Action(3)),
            Sequence(Condition(HEALTH, 0.15, above=True), Action(4)),
        )
        self.idle = nn.Linear(6, 3)

    def forward(self, obs):
        actions, moves = [], []
        for a in range(obs.shape[0]):
            if obs[a, HEALTH] <= 0:
                actions.append(torch.tensor(-1))
                moves.append(torch.zeros(3))
                continue
            ok, move, act = self.root(obs[a])
            if not ok:
                act, move = torch.tensor(0), torch.tanh(self.idle(obs[a]))
            actions.append(act)
            moves.append(move)
        return torch.stack(actions), torch.stack(moves)


def model():
    torch.manual_seed(19)
    return SquadAI().eval()


# agent archetypes: [health, enemy_dist, ammo, visible, cover_dist, aim]
WOUNDED_NEAR_COVER = [0.2, 25.0, 12.0, 1.0, 3.0, 0.9]
WOUNDED_NO_COVER = [0.25, 25.0, 12.0, 1.0, 20.0, 0.9]
STEADY_SHOOTER = [0.9, 30.0, 20.0, 1.0, 10.0, 0.95]
SHAKY_SHOOTER = [0.8, 30.0, 20.0, 1.0, 10.0, 0.02]
CHASER = [0.7, 35.0, 5.0, 0.0, 10.0, 0.5]
OUT_OF_AMMO = [0.6, 15.0, 0.0, 1.0, 12.0, 0.9]
PATROL = [0.7, 80.0, 10.0, 0.0, 12.0, 0.5]
DYING = [0.1, 90.0, 0.0, 0.0, 30.0, 0.5]
DEAD = [-0.2, 30.0, 10.0, 1.0, 5.0, 0.5]  # overkill damage leaves health negative


def example_inputs():
    return (torch.tensor([STEADY_SHOOTER, CHASER, WOUNDED_NEAR_COVER, PATROL]),)


def dynamic_shapes():
    return ({0: Dim("agents", min=2, max=64)},)


def verify_inputs():
    return [
        example_inputs(),                                        # shoot, chase, take cover, patrol
        (torch.tensor([WOUNDED_NO_COVER, SHAKY_SHOOTER, OUT_OF_AMMO, DEAD, DYING]),),
        # cover too far -> falls through to shoot; poor aim -> shot refused -> chase;
        # no ammo -> patrol; dead agent skipped; dying with nothing to do -> idle fallback
        (torch.tensor([DEAD, DEAD]),),                           # whole squad dead: every agent skipped
    ]
