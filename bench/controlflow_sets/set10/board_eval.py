"""Connect-Four move evaluator for a game app: tries every legal column, plays an
immediately winning move at once, otherwise scores resulting boards with a small
value network and returns the best column. Board: +1 own stones, -1 opponent, 0 empty."""
import torch
from torch import nn
import torch.nn.functional as F

ROWS, COLS = 6, 7


class ValueNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 16, 3, padding=1)
        self.fc = nn.Linear(16 * ROWS * COLS, 1)

    def forward(self, board):
        planes = torch.stack([(board > 0).float(), (board < 0).float()]).unsqueeze(0)
        return torch.tanh(self.fc(F.relu(self.conv(planes)).flatten()))[0]


class MoveEvaluator(nn.Module):
    def __init__(self):
        super().__init__()
        self.value = ValueNet()
        k = torch.zeros(4, 1, 4, 4)
        k[0, 0, 0, :] = 1.0                 # horizontal
        k[1, 0, :, 0] = 1.0                 # vertical
        k[2, 0] = torch.eye(4)              # diagonal
        k[3, 0] = torch.eye(4).flip(1)      # anti-diagonal
        self.register_buffer("lines", k)

    def has_four(self, board):
        counts = F.conv2d(board.reshape(1, 1, ROWS, COLS), self.lines, padding=3)
        return (counts >= 3.5).any()

    def drop(self, board, col):
        empty = (board[:, col] == 0).sum()
        row = int(empty.item()) - 1          # gravity: lowest empty row
        b2 = board.clone()
        b2[row, col] = 1.0
        return b2

    def forward(self, board):
        legal = (board[0] == 0).nonzero().flatten()
        n_legal = int(legal.shape[0])
        scores = torch.full((COLS,), -2.0)
        for i in range(n_legal):
            col = int(legal[i].item())
            b2 = self.drop(board, col)
            if self.has_four(b2):
                # winning move: no need to look further
                return torch.tensor(col), torch.tensor(1.0)
            scores[col] = -self.value(-b2)           # opponent to move: negamax
        if n_legal == 0:
            return torch.tensor(-1), torch.tensor(0.0)   # board full: draw
        best = torch.argmax(scores)
        return best, scores[best]


def model():
    torch.manual_seed(0)
    return MoveEvaluator().eval()


def _board(rows):
    return torch.tensor([[{".": 0.0, "x": 1.0, "o": -1.0}[c] for c in r] for r in rows])


def example_inputs():
    return (_board([".......",
                    ".......",
                    ".......",
                    "...o...",
                    "..xx...",
                    ".oxoo.x"]),)


def verify_inputs():
    return [
        (_board([".......",
                 ".......",
                 ".......",
                 ".......",
                 "....o..",
                 ".xxx.oo"]),),        # x wins at column 0 or 4 -> early return
        (_board(["xoxoxox",
                 "xoxoxox",
                 "oxoxoxo",
                 "oxoxoxo",
                 "xoxoxox",
                 "xoxoxox"]),),        # full board: loop runs zero times
        (_board(["oxox.xo",
                 "oxoxoxo",
                 "xoxoxox",
                 "xoxoxox",
                 "oxoxoxo",
                 "oxoxoxo"]),),        # one legal move
    ]
