"""Turn-based RPG combat resolver with an active-time (initiative) gauge.

Each unit has speed, hp, attack and defense and belongs to team 0 or 1. The
unit whose gauge fills first acts: a badly hurt unit drinks a potion while
its team still has some, otherwise it attacks the weakest living enemy with
a learned damage multiplier. The battle runs until one team is wiped out or
the turn limit (a draw) is reached.
"""
import torch
import torch.nn as nn


class InitiativeCombat(nn.Module):
    def __init__(self, max_turns=200, potions_per_team=2):
        super().__init__()
        self.max_turns = max_turns
        self.potions_per_team = potions_per_team
        self.damage_roll = nn.Sequential(nn.Linear(4, 12), nn.Tanh(), nn.Linear(12, 1))

    def choose_target(self, hp, team, actor):
        enemies = (hp > 0) & (team != team[actor])
        return torch.argmin(torch.where(enemies, hp, torch.full_like(hp, float("inf"))))

    def forward(self, units, team):
        speed = units[:, 0]
        hp = units[:, 1].clone()
        max_hp = units[:, 1]
        attack = units[:, 2]
        defense = units[:, 3]
        gauge = torch.zeros_like(speed)
        potions = [self.potions_per_team, self.potions_per_team]
        damage_dealt = torch.zeros_like(hp)
        turns = 0
        while (hp[team == 0] > 0).any() and (hp[team == 1] > 0).any():
            if turns >= self.max_turns:
                break
            alive = hp > 0
            wait = torch.where(alive, (100.0 - gauge) / speed, torch.full_like(gauge, float("inf")))
            actor = torch.argmin(wait)
            gauge = torch.where(alive, gauge + wait[actor] * speed, gauge)
            gauge[actor] = 0.0
            side = int(team[actor].item())
            if hp[actor] < 0.3 * max_hp[actor] and potions[side] > 0:
                potions[side] -= 1
                hp[actor] = torch.minimum(hp[actor] + 0.5 * max_hp[actor], max_hp[actor])
            else:
                target = self.choose_target(hp, team, actor)
                roll = self.damage_roll(torch.stack([speed[actor] / 20.0, attack[actor] / 50.0,
                                                     defense[target] / 50.0, hp[target] / 200.0]))
                mult = 1.0 + 0.25 * torch.tanh(roll).squeeze(0)
                dmg = attack[actor] * attack[actor] / (attack[actor] + defense[target]) * mult
                hp[target] = torch.clamp(hp[target] - dmg, min=0.0)
                damage_dealt[actor] = damage_dealt[actor] + dmg
            turns += 1
        return hp, damage_dealt, torch.tensor(turns)


def model():
    torch.manual_seed(5513)
    return InitiativeCombat().eval()


def _party(n, seed, hp_scale=1.0, def_scale=1.0, wiped_team=None):
    g = torch.Generator().manual_seed(seed)
    speed = 8.0 + 8.0 * torch.rand(n, generator=g)
    hp = hp_scale * (80.0 + 60.0 * torch.rand(n, generator=g))
    atk = 20.0 + 20.0 * torch.rand(n, generator=g)
    dfn = def_scale * (10.0 + 20.0 * torch.rand(n, generator=g))
    team = torch.arange(n) % 2
    if wiped_team is not None:
        hp = torch.where(team == wiped_team, torch.zeros_like(hp), hp)
    return torch.stack([speed, hp, atk, dfn], dim=1), team


def example_inputs():
    return _party(6, 1)


def dynamic_shapes():
    units = torch.export.Dim("units", min=2, max=12)
    return ({0: units}, {0: units})


def verify_inputs():
    return [
        example_inputs(),                                 # 3v3 fight to the end, potions used
        _party(2, 2),                                     # units=min: duel
        _party(12, 3),                                    # units=max: 6v6 brawl
        _party(4, 4, hp_scale=40.0, def_scale=40.0),      # tanks barely scratch each other: turn limit -> break
        _party(5, 5, wiped_team=1),                       # team 1 already down: loop never runs
    ]
