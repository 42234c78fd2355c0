"""Football (soccer) event data: split a match segment into possession chains.

Event stream from a tagging provider: acting team, event type and pitch location. Stoppages
(ball out, fouls) are skipped, the period-end whistle stops processing. A chain ends when
the other team gets the ball. Each chain is summarised (team, number of actions, forward
progression, final x, ended in a shot) and scored by a small possession-value network.

Kind: T.  Constructs: 1, 2, 5, 6.
"""
import torch
import torch.nn as nn
from torch.export import Dim

PASS, CARRY, SHOT, STOPPAGE, PERIOD_END = 0, 1, 2, 3, 4
PITCH_LENGTH = 105.0


class PossessionChains(nn.Module):
    def __init__(self):
        super().__init__()
        self.value_net = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, team, etype, xy):
        # team: (E,) 0/1, etype: (E,) event codes, xy: (E, 2) metres, team 0 attacks +x
        n = team.shape[0]
        chains = []
        cur_team = team[0]
        start_x = torch.zeros(())
        end_x = torch.zeros(())
        count = torch.zeros(())
        shot = torch.zeros(())
        for i in range(n):
            if etype[i] == PERIOD_END:
                break
            if etype[i] == STOPPAGE:
                continue
            # x in the acting team's attacking direction
            x = xy[i, 0] if team[i] == 0 else PITCH_LENGTH - xy[i, 0]
            if team[i] != cur_team:
                chains.append(torch.stack([cur_team.float(), count, end_x - start_x, end_x, shot]))
                cur_team = team[i]
                count = torch.zeros(())
                shot = torch.zeros(())
            if count == 0:
                start_x = x
            count = count + 1
            end_x = x
            if etype[i] == SHOT:
                shot = torch.ones(())
        chains.append(torch.stack([cur_team.float(), count, end_x - start_x, end_x, shot]))
        summary = torch.stack(chains)
        scale = torch.tensor([1.0, 0.1, 0.02, 0.01, 1.0])
        value = torch.sigmoid(self.value_net(summary * scale)).squeeze(-1)
        return summary, value


def model():
    torch.manual_seed(9)
    return PossessionChains().eval()


def _events(rows):
    team = torch.tensor([r[0] for r in rows])
    etype = torch.tensor([r[1] for r in rows])
    xy = torch.tensor([[r[2], r[3]] for r in rows], dtype=torch.float32)
    return team, etype, xy


def example_inputs():
    return _events([
        (0, PASS, 30.0, 34.0), (0, PASS, 42.0, 20.0), (0, CARRY, 55.0, 18.0),
        (0, STOPPAGE, 55.0, 0.0),                     # throw-in
        (1, PASS, 50.0, 2.0), (1, PASS, 38.0, 30.0),  # team 1 attacks towards x = 0
        (0, PASS, 60.0, 40.0), (0, PASS, 80.0, 35.0), (0, SHOT, 94.0, 33.0),
        (1, PASS, 6.0, 34.0),
    ])


def dynamic_shapes():
    e = Dim("events", min=2, max=4000)
    return ({0: e}, {0: e}, {0: e})


def verify_inputs():
    return [
        # three team changes, a stoppage (continue), a shot, no whistle (loop runs to the end)
        example_inputs(),
        # whistle after two passes: break; single chain
        _events([(1, PASS, 60.0, 30.0), (1, PASS, 70.0, 30.0), (0, PERIOD_END, 52.5, 34.0),
                 (0, PASS, 52.5, 34.0)]),
        # starts with a stoppage, then one team keeps the ball (no team change)
        _events([(0, STOPPAGE, 0.0, 0.0), (0, PASS, 20.0, 10.0), (0, CARRY, 35.0, 12.0)]),
        # kick-off whistle is the first event: loop breaks at once, empty chain
        _events([(0, PERIOD_END, 52.5, 34.0), (1, PASS, 52.5, 34.0)]),
    ]
