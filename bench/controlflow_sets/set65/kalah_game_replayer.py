"""Kalah (mancala) game replayer with a position evaluator.

Board layout: pits 0-5 belong to South with store 6, pits 7-12 to North with store 13.
A logged move is a pit number 0-5 relative to the player to move.  Sowing drops one seed per
pit counter-clockwise, skipping the opponent's store.  Ending in one's own store grants an
extra turn; ending in an empty own pit opposite a non-empty pit captures both.  When one side
is empty the game ends and the remaining seeds go to their owner.  Moves from an empty pit
(corrupted log entries) are skipped.  A small MLP evaluates the final position.
"""
import torch
import torch.nn as nn
from torch.export import Dim

N_PITS = 14
STORE = (6, 13)


def sow(board, pit, player):
    seeds = board[pit].clone()
    board[pit] = 0
    idx = pit
    while seeds > 0:
        idx = (idx + 1) % N_PITS
        if idx == STORE[1 - player]:
            continue
        board[idx] += 1
        seeds -= 1
    return idx


def side_empty(board, player):
    start = 7 * player
    return board[start:start + 6].sum() == 0


def sweep(board):
    board[6] += board[0:6].sum()
    board[13] += board[7:13].sum()
    board[0:6] = 0
    board[7:13] = 0
    return board


class KalahReplayer(nn.Module):
    def __init__(self):
        super().__init__()
        self.value = nn.Sequential(nn.Linear(N_PITS + 1, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, board, moves):
        board = board.clone()
        player = 0
        skipped = 0
        for m in range(moves.shape[0]):
            pit = int(moves[m]) + 7 * player
            if board[pit] == 0:
                skipped += 1
                continue
            last = sow(board, pit, player)
            if side_empty(board, 0) or side_empty(board, 1):
                board = sweep(board)
                break
            if last == STORE[player]:
                continue  # extra turn
            own_side = 7 * player <= last < 7 * player + 6
            if own_side and board[last] == 1 and board[12 - last] > 0:
                board[STORE[player]] += board[12 - last] + 1
                board[last] = 0
                board[12 - last] = 0
            player = 1 - player
        x = torch.cat([board.float() / 48.0, torch.tensor([float(player)])])
        win_prob = torch.sigmoid(self.value(x)).squeeze(0)
        return board, win_prob, torch.tensor([player, skipped])


def model():
    torch.manual_seed(6514)
    return KalahReplayer().eval()


def _start(seeds=4):
    b = torch.full((N_PITS,), seeds, dtype=torch.long)
    b[6] = 0
    b[13] = 0
    return b


def _board(pits):
    return torch.tensor(pits, dtype=torch.long)


def example_inputs():
    return (_start(), torch.tensor([2, 5, 3, 0, 1, 4], dtype=torch.long))


def dynamic_shapes():
    return (None, {0: Dim("moves", min=2, max=200)})


def verify_inputs():
    return [
        example_inputs(),   # opening: two extra turns (last seed in own store), one capture, normal alternation
        # South pit 5 holds 10 seeds: sowing wraps past North's store (skipped); a capture
        (_board([1, 0, 2, 3, 0, 10, 5, 2, 2, 0, 3, 1, 4, 6]), torch.tensor([5, 3, 2, 1], dtype=torch.long)),
        # South's last seed goes into the store -> South side empty -> sweep, game over (rest of log unused)
        (_board([0, 0, 0, 0, 0, 1, 20, 3, 2, 4, 0, 1, 5, 12]), torch.tensor([5, 0, 1], dtype=torch.long)),
        # log contains a move from an empty pit (skipped, continue), then an extra turn
        (_board([0, 2, 0, 1, 0, 3, 4, 3, 3, 3, 3, 3, 3, 5]), torch.tensor([0, 1, 3, 2], dtype=torch.long)),
        # 3-seed variant, 12 logged moves: sowing loop runs 1..many times, extra turns, no game end
        (_start(3), torch.tensor([0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5], dtype=torch.long)),
    ]
