"""Snakes and ladders game server: replay a game from the pre-drawn dice and estimate who wins.

The server draws every player's dice in advance (provably fair seed), then replays the game:
three sixes in a row send a player back to the start, overshooting 100 means staying put,
snakes and ladders are looked up in the board table, and the game ends as soon as a
player lands exactly on 100. A small value head turns the final positions into win
probabilities for the lobby UI.

Kind: X.  Constructs: 1, 2, 3, 5, 6.
"""
import torch
import torch.nn as nn
from torch.export import Dim

LADDERS = {1: 38, 4: 14, 9: 31, 21: 42, 28: 84, 36: 44, 51: 67, 71: 91, 80: 100}
SNAKES = {16: 6, 47: 26, 49: 11, 56: 53, 62: 19, 64: 60, 87: 24, 93: 73, 95: 75, 98: 78}


class SnakesLaddersSim(nn.Module):
    def __init__(self, board_size=100):
        super().__init__()
        self.board_size = board_size
        jump = torch.arange(board_size + 1)
        for a, b in {**LADDERS, **SNAKES}.items():
            jump[a] = b
        self.register_buffer("jump", jump)
        self.value_head = nn.Linear(2, 1)

    def forward(self, rolls):
        # rolls: (P, R) dice values 1..6 for P players and up to R rounds
        n_players, n_rounds = rolls.shape
        pos = torch.zeros(n_players, dtype=torch.long)
        sixes = torch.zeros(n_players, dtype=torch.long)
        winner = torch.tensor(-1)
        history = []
        for r in range(n_rounds):
            for p in range(n_players):
                roll = rolls[p, r]
                if roll == 6 and sixes[p] == 2:
                    # third six in a row: back to the start, turn over
                    pos[p] = 0
                    sixes[p] = 0
                    continue
                sixes[p] = sixes[p] + 1 if roll == 6 else 0
                target = pos[p] + roll
                if target > self.board_size:
                    # must land exactly on the last square
                    continue
                pos[p] = self.jump[target]
                if pos[p] == self.board_size:
                    winner = torch.tensor(p)
                    break
            history.append(pos.clone())
            if winner >= 0:
                break
        track = torch.stack(history)
        feats = torch.stack([pos.float() / self.board_size,
                             (pos - pos.max()).float() / self.board_size], dim=-1)
        win_prob = torch.softmax(self.value_head(feats).squeeze(-1) * 5.0, dim=0)
        return track, winner, win_prob


def model():
    torch.manual_seed(11)
    return SnakesLaddersSim().eval()


def _dice(players, rounds, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(1, 7, (players, rounds), generator=g)


def example_inputs():
    return (_dice(3, 80, 0),)


def dynamic_shapes():
    return ({0: Dim("players", min=2, max=8), 1: Dim("rounds", min=2, max=500)},)


def verify_inputs():
    scripted = torch.tensor([
        [6, 6, 6, 4, 3],     # player 0: three sixes -> back to start, then 4 (ladder 4->14), 3
        [1, 3, 5, 6, 2],     # player 1: ladder 1->38, 41, 46, 52, 54
    ])
    return [
        # full game, somebody wins mid-round (inner break, then outer break)
        example_inputs(),
        # short scripted game: triple six `continue`, ladders, nobody finishes (loops complete)
        (scripted,),
        # long 4-player game with overshoots near 100 (exact-finish `continue`)
        (_dice(4, 200, 3),),
        # two players, few rounds: no winner
        (_dice(2, 6, 5),),
    ]
