"""Multi-jump resolver for a checkers/draughts engine on variable board sizes.

Kind X.  Constructs: 1, 2, 3, 4, 6, 7, 8.
Given a board (0 empty, +1/+2 own man/king, -1/-2 opponent man/king) and the
square of the piece to move, performs the capture chain: at each hop the
legal jumps are enumerated (helpers with early returns, bounds checks on the
dynamic board size) and the landing square with the best learned value wins.
The chain stops when no jump is left, when a man is crowned, or at the
chain cap.  Returns the new board, number of captures and the path.
"""
import torch
import torch.nn as nn
from torch.export import Dim

BOARD = Dim("board", min=6, max=12)

MAN_DIRS = [(-1, -1), (-1, 1)]
KING_DIRS = [(-1, -1), (-1, 1), (1, -1), (1, 1)]


def directions(piece):
    if piece > 1.5:
        return KING_DIRS
    return MAN_DIRS


def can_jump(board, r, c, dr, dc, n):
    r2, c2 = r + 2 * dr, c + 2 * dc
    if not (0 <= r2 < n and 0 <= c2 < n):
        return False
    if board[r + dr, c + dc] >= 0:
        return False                      # nothing to capture
    return bool(board[r2, c2] == 0)


class ValueNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.Tanh(), nn.Conv2d(8, 1, 3, padding=1))

    def forward(self, board):
        return self.net(board[None, None]).squeeze(0).squeeze(0)


class JumpResolver(nn.Module):
    def __init__(self, max_chain=3):
        super().__init__()
        self.value = ValueNet()
        self.max_chain = max_chain

    def forward(self, board, start):
        board = board.clone()
        n = board.shape[0]
        r, c = int(start[0]), int(start[1])
        piece = board[r, c].clone()
        if piece <= 0:
            return board, torch.zeros(()), start.float().unsqueeze(0)   # no own piece there

        values = self.value(board)
        path = [torch.tensor([float(r), float(c)])]
        captured = torch.zeros(())
        while captured < self.max_chain:
            best, best_val = None, None
            for dr, dc in directions(piece):
                if not can_jump(board, r, c, dr, dc, n):
                    continue
                val = values[r + 2 * dr, c + 2 * dc]
                if best is None or val > best_val:
                    best, best_val = (dr, dc), val
            if best is None:
                break
            dr, dc = best
            board[r + dr, c + dc] = 0.0
            board[r, c] = 0.0
            r, c = r + 2 * dr, c + 2 * dc
            board[r, c] = piece
            captured = captured + 1
            path.append(torch.tensor([float(r), float(c)]))
            if r == 0 and piece < 1.5:
                board[r, c] = 2.0                 # crowned: the turn ends
                break
        return board, captured, torch.stack(path)


def model():
    torch.manual_seed(63011)
    return JumpResolver().eval()


def _board(n, pieces, start):
    b = torch.zeros(n, n)
    for (r, c), v in pieces.items():
        b[r, c] = float(v)
    return b, torch.tensor(start)


def example_inputs():
    # man at (5,2) captures (4,3) and lands on (3,4); nothing more to take
    return _board(8, {(5, 2): 1, (4, 3): -1, (6, 5): -1, (7, 0): 1}, [5, 2])


def dynamic_shapes():
    return ({0: BOARD, 1: BOARD}, None)


def verify_inputs():
    return [
        example_inputs(),                                                  # single capture, then break
        _board(8, {(6, 3): 1, (5, 2): -1, (5, 4): -1, (3, 2): -1, (3, 6): -1}, [6, 3]),
        # ^ two jumps available at the first hop: value net picks one; chain goes on
        _board(10, {(8, 1): 2, (7, 2): -1, (5, 4): -2, (5, 6): -1, (7, 8): -1, (3, 4): -1, (3, 6): -1}, [8, 1]),
        # ^ king: at the 3rd hop three jumps (one backward) compete, the best and a worse one both seen;
        #   stops at the 3-capture cap (while condition false)
        _board(8, {(3, 3): -1, (5, 2): 1}, [3, 4]),                        # empty start square: early return
        _board(6, {(2, 1): 1, (1, 2): -1, (1, 4): -1}, [2, 1]),            # man crowned on row 0 -> break
        _board(10, {(5, 0): 1, (4, 1): 1, (6, 1): -1}, [5, 0]),           # off-board / own piece: no jump at all
        _board(12, {(10, 5): 1, (9, 4): -1, (9, 6): -1, (8, 7): -2, (7, 2): -1, (5, 0): -1}, [10, 5]),
        # ^ 12x12: blocked landing square, two captures, then the only candidate lands off the board
    ]
