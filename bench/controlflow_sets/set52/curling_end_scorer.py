"""Curling end scoring from stone positions after the last delivery: which team
has shot rock, how many of its stones are closer than the opponent's best, a
blank-end check, guards counted in front of the house, and a learned estimate of
the value of keeping the hammer next end."""
import torch
import torch.nn as nn
from torch.export import Dim


def count_guards(stones, in_house):
    guards = []
    for s in range(stones.shape[0]):
        if in_house[s]:
            continue
        # between the hog line (6.4 m in front of the tee) and the house
        if stones[s, 1] > 0 and stones[s, 1] < 6.4:
            guards.append(stones[s, 0].abs() < 1.2)
    return torch.stack(guards).sum() if guards else torch.tensor(0)


class CurlingEndScorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.house_radius = 1.829
        self.stone_radius = 0.145
        self.hammer_value = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, stones, team, hammer_team):
        # stones: [S, 2] (x across, y up-sheet from the tee) in metres; team: [S] 0/1; hammer_team: [1]
        dist = stones.norm(dim=1)
        in_house = dist <= self.house_radius + self.stone_radius
        guards = count_guards(stones, in_house)
        if not in_house.any():
            # blank end: hammer stays
            feats = torch.stack([torch.zeros(()), hammer_team[0].float(), guards.float(), torch.zeros(())])
            return torch.tensor(0), hammer_team[0].clone(), torch.tanh(self.hammer_value(feats)).squeeze(0)
        remaining = torch.where(in_house, dist, torch.full_like(dist, float("inf")))
        scoring_team = team[torch.argmin(remaining)]
        points = 0
        while torch.isfinite(remaining).any():
            idx = torch.argmin(remaining)
            if team[idx] != scoring_team:
                break  # opponent's closest stone ends the count
            points += 1
            remaining = torch.where(torch.arange(remaining.shape[0]) == idx, torch.full_like(remaining, float("inf")), remaining)
        # the team that scored gives up the hammer
        next_hammer = 1 - scoring_team
        stolen = scoring_team != hammer_team[0]
        feats = torch.stack([torch.tensor(float(points)), next_hammer.float(), guards.float(), stolen.float()])
        return torch.tensor(points) * (1 - 2 * scoring_team), next_hammer, torch.tanh(self.hammer_value(feats)).squeeze(0)


def model():
    torch.manual_seed(5210)
    return CurlingEndScorer().eval()


def example_inputs():
    stones = torch.tensor([[0.3, 0.2], [-0.9, 0.4], [1.1, -0.5], [0.2, 3.0], [-0.5, 2.5], [2.5, 1.0]])
    team = torch.tensor([0, 1, 0, 1, 0, 1])
    return stones, team, torch.tensor([1])


def dynamic_shapes():
    stones = Dim("stones", min=2, max=16)
    return {0: stones}, {0: stones}, None


def verify_inputs():
    g = torch.Generator().manual_seed(7)
    full = torch.stack([3.0 * torch.rand(16, generator=g) - 1.5, 4.0 * torch.rand(16, generator=g) - 1.5], 1)
    full_team = torch.arange(16) % 2
    return [
        example_inputs(),  # team 0 shot rock, 1 point (team 1 second), guards counted, steal
        (torch.tensor([[0.2, 3.0], [2.5, 4.0]]), torch.tensor([0, 1]), torch.tensor([0])),      # min stones, none in house -> blank end
        (full, full_team, torch.tensor([0])),                                                   # max stones, mixed house
        (torch.tensor([[0.1, 0.1], [0.4, -0.3], [0.0, 1.0]]), torch.tensor([1, 1, 1]), torch.tensor([1])),  # all in house, only team 1 -> while runs out (no break), no guards
        (torch.tensor([[0.5, 7.0], [0.2, -0.2], [3.0, 5.0]]), torch.tensor([0, 1, 0]), torch.tensor([0])),  # one stone beyond guard zone, one off-centre (not a centre guard)
    ]
