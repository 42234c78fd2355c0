"""Tic-tac-toe move picker: depth-limited alpha-beta minimax with a learned value network at
the search horizon. X = +1, O = -1, empty = 0; the side to move follows from the counts."""
import torch
import torch.nn as nn
from torch.export import Dim

LINES = torch.tensor([[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6],
                      [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]])
WIN = 10.0


def winner(board):
    sums = board[LINES].sum(1)
    if (sums == 3).any():
        return 1
    if (sums == -3).any():
        return -1
    return 0


class MinimaxAgent(nn.Module):
    def __init__(self, max_depth=3):
        super().__init__()
        self.max_depth = max_depth
        self.value = nn.Sequential(nn.Linear(9, 16), nn.Tanh(), nn.Linear(16, 1), nn.Tanh())

    def search(self, board, player, depth, alpha, beta):
        w = winner(board)
        if w != 0:
            return torch.tensor(w * (WIN - depth))  # prefer faster wins, slower losses
        empties = (board == 0).nonzero().flatten().tolist()
        if not empties:
            return torch.tensor(0.0)
        if depth >= self.max_depth:
            return self.value(board).squeeze()  # heuristic value in (-1, 1)
        best = torch.tensor(-100.0 if player == 1 else 100.0)
        for sq in empties:
            child = board.clone()
            child[sq] = player
            v = self.search(child, -player, depth + 1, alpha, beta)
            if player == 1:
                best, alpha = torch.maximum(best, v), torch.maximum(alpha, v)
            else:
                best, beta = torch.minimum(best, v), torch.minimum(beta, v)
            if beta <= alpha:
                break  # the opponent already has a better option elsewhere
        return best

    def forward(self, boards):
        # boards (B, 9) in {-1, 0, 1}; returns chosen square (-1: none) and its value
        moves, values = [], []
        for i in range(boards.shape[0]):
            board = boards[i]
            n_x, n_o = int((board == 1).sum()), int((board == -1).sum())
            if n_x - n_o not in (0, 1):
                moves.append(torch.tensor(-2))  # illegal position
                values.append(torch.tensor(0.0))
                continue
            player = 1 if n_x == n_o else -1
            w = winner(board)
            if w != 0 or n_x + n_o == 9:
                moves.append(torch.tensor(-1))  # game over
                values.append(torch.tensor(float(w) * WIN))
                continue
            best_sq, best_v = -1, None
            for sq in (board == 0).nonzero().flatten().tolist():
                child = board.clone()
                child[sq] = player
                lo, hi = torch.tensor(-100.0), torch.tensor(100.0)
                v = player * self.search(child, -player, 1, lo, hi)
                if best_v is None or v > best_v:  # strict: ties keep the lowest square
                    best_sq, best_v = sq, v
            moves.append(torch.tensor(best_sq))
            values.append(best_v * player)
        return torch.stack(moves), torch.stack(values)


def model():
    torch.manual_seed(6013)
    return MinimaxAgent().eval()


def _boards(*rows):
    return (torch.tensor(rows, dtype=torch.float32),)


MID = [1, -1, 1, 0, -1, 0, 0, 0, 0]          # X to move, must block the O column
EARLY = [1, 0, 0, 0, -1, 0, 0, 0, 0]         # deep: the value net decides at the horizon


def example_inputs():
    return _boards(MID, EARLY, [1, 1, 0, -1, -1, 0, 0, 0, 0])


def dynamic_shapes():
    return ({0: Dim("boards", min=2, max=8)},)


def verify_inputs():
    return [
        _boards(MID, EARLY, [1, 1, 0, -1, -1, 0, 0, 0, 0]),   # example: block, horizon, win now
        _boards([1, 1, 1, -1, -1, 0, 0, 0, 0], [1, -1, 1, 1, -1, -1, -1, 1, 1]),  # min: won, draw
        _boards(MID, EARLY, [1, 1, 0, 0, -1, 0, -1, 0, 0], [1, -1, 0, 0, 0, 0, 0, 0, 0],
                [1, 1, 1, 1, 0, 0, 0, 0, 0], [0] * 9, [1, -1, 1, -1, 1, -1, 0, 0, 0],
                [-1, -1, -1, 1, 1, 0, 1, 0, 0]),  # max: O to move, opening, illegal, O has won
        _boards([1, -1, 1, 1, -1, -1, -1, 1, 0], [1, -1, 1, 1, -1, 0, -1, 1, 0]),  # endgames: draws
    ]
