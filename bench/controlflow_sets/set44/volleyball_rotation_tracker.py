"""Volleyball scorekeeper: replay rally winners, track serve, side-outs, rotations and set end.

Kind X. Constructs: 1, 2, 5, 6, 7.
"""
import torch
import torch.nn as nn
from torch.export import Dim


def rotate(rot, team):
    # clockwise rotation of the team that just won the serve back
    if team == 0:
        return torch.stack([(rot[0] + 1) % 6, rot[1]])
    return torch.stack([rot[0], (rot[1] + 1) % 6])


def award(score, team):
    return score + torch.nn.functional.one_hot(team.long(), 2).to(score.dtype)


class RotationTracker(nn.Module):
    def __init__(self, set_point=25):
        super().__init__()
        self.set_point = set_point
        self.momentum = nn.GRUCell(4, 8)
        self.win_prob = nn.Linear(8, 1)

    def forward(self, rallies, first_server):
        # rallies: (R,) int64 winner of each rally (0/1); first_server: () int64
        serving = first_server
        rot = torch.zeros(2, dtype=torch.int64)
        score = torch.zeros(2)
        h = torch.zeros(1, 8)
        history = []
        for i in range(rallies.shape[0]):
            w = rallies[i]
            if w != serving:
                # side-out: receiving team wins serve and rotates
                rot = rotate(rot, w)
                serving = w
            score = award(score, w)
            feat = torch.stack([score[0] / 25, score[1] / 25, serving.float(), (rot[0] - rot[1]).float() / 6])
            h = self.momentum(feat.unsqueeze(0), h)
            history.append(serving)
            lead = (score[0] - score[1]).abs()
            if score.max() >= self.set_point and lead >= 2:
                break
        p = torch.sigmoid(self.win_prob(h))[0, 0]
        return score, rot, torch.stack(history), p


def model():
    torch.manual_seed(201)
    return RotationTracker().eval()


def example_inputs():
    return torch.tensor([0, 0, 1, 1, 0, 1, 0, 0, 1, 0], dtype=torch.int64), torch.tensor(0)


def dynamic_shapes():
    return ({0: Dim("rallies", min=2, max=80)}, None)


def verify_inputs():
    return [
        example_inputs(),                                        # side-outs both ways, no set end
        (torch.tensor([1] * 25 + [0] * 5, dtype=torch.int64), torch.tensor(0)),  # team 1 wins 25-0 -> break
        (torch.tensor([0, 1] * 40, dtype=torch.int64), torch.tensor(1)),  # alternate, never 2 ahead, 80 rallies
        (torch.tensor([0, 0], dtype=torch.int64), torch.tensor(0)),       # server holds, no side-out
    ]
