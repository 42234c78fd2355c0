"""Go engine move resolver with a tiny value network.

Plays move = (row, col, colour) on a board (0 empty, 1 black, 2 white):
  * an occupied point is illegal;
  * adjacent enemy groups left without liberties are captured;
  * a move that captures nothing and leaves its own group without liberties
    is suicide (illegal);
  * a single-stone capture by a single stone left in atari sets the ko point.
The value net (random weights here) scores the resulting position for the
mover, with komi depending on the board size.
Returns (new board, captured stones or -1 if illegal, ko point index or -1, value).
"""
import torch
import torch.nn as nn

OFFSETS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def neighbours(r, c, n):
    for dr, dc in OFFSETS:
        rr, cc = r + dr, c + dc
        if 0 <= rr < n and 0 <= cc < n:
            yield rr, cc


def flood_group(board, r, c):
    """Stones of the group at (r, c) and its number of liberties."""
    colour = board[r, c]
    n = board.shape[0]
    group = {(r, c)}
    liberties = set()
    stack = [(r, c)]
    while stack:
        cr, cc = stack.pop()
        for nr, nc in neighbours(cr, cc, n):
            v = board[nr, nc]
            if v == 0:
                liberties.add((nr, nc))
            elif v == colour and (nr, nc) not in group:
                group.add((nr, nc))
                stack.append((nr, nc))
    return group, len(liberties)


class ValueNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
                                  nn.Conv2d(8, 8, 3, padding=1), nn.ReLU())
        self.head = nn.Linear(8, 1)

    def forward(self, board, colour):
        own = (board == colour).float()
        opp = (board == 3 - colour).float()
        planes = torch.stack([own, opp, (board == 0).float()]).unsqueeze(0)
        feat = self.conv(planes).mean(dim=(2, 3))
        return self.head(feat).squeeze()


class GoMoveResolver(nn.Module):
    def __init__(self):
        super().__init__()
        self.value_net = ValueNet()

    def evaluate(self, board, colour):
        n = board.shape[0]
        komi = 7.5 if n >= 13 else 5.5
        margin = (board == colour).sum() - (board == 3 - colour).sum()
        margin = margin - komi if colour == 1 else margin + komi
        return torch.tanh(self.value_net(board, colour) + 0.05 * margin)

    def forward(self, board, move):
        n = board.shape[0]
        r, c, colour = move.tolist()
        opponent = 3 - colour
        if board[r, c] != 0:
            return board.clone(), torch.tensor(-1), torch.tensor(-1), self.evaluate(board, colour)

        new = board.clone()
        new[r, c] = colour
        captured = []
        for nr, nc in neighbours(r, c, n):
            if new[nr, nc] == opponent:
                group, libs = flood_group(new, nr, nc)
                if libs == 0:
                    for gr, gc in group:
                        new[gr, gc] = 0
                    captured.extend(group)

        own_group, own_libs = flood_group(new, r, c)
        if not captured and own_libs == 0:
            return board.clone(), torch.tensor(-1), torch.tensor(-1), self.evaluate(board, colour)

        ko = -1
        if len(captured) == 1 and len(own_group) == 1 and own_libs == 1:
            kr, kc = captured[0]
            ko = kr * n + kc
        return new, torch.tensor(len(captured)), torch.tensor(ko), self.evaluate(new, colour)


def model():
    torch.manual_seed(513)
    return GoMoveResolver().eval()


def _board(rows):
    table = {".": 0, "X": 1, "O": 2}
    return torch.tensor([[table[ch] for ch in row] for row in rows], dtype=torch.long)


def example_inputs():
    board = _board([
        ".........",
        "...XX....",
        "..XOO....",
        "...XX....",
        ".........",
        ".....O...",
        "....O.O..",
        ".........",
        ".........",
    ])
    return board, torch.tensor([2, 5, 1])       # black closes the net on two white stones


def dynamic_shapes():
    n = torch.export.Dim("board", min=5, max=19)
    return ({0: n, 1: n}, None)


def verify_inputs():
    ko_board = _board([
        ".....",
        ".XO..",
        "XO.O.",
        ".XO..",
        ".....",
    ])
    suicide_board = _board([
        ".X...",
        "X....",
        ".....",
        ".....",
        ".....",
    ])
    g = torch.Generator().manual_seed(19)
    big = torch.randint(0, 3, (19, 19), generator=g)
    big[9, 9] = 0
    return [
        example_inputs(),                                   # 9x9: captures a 2-stone group
        (ko_board, torch.tensor([2, 2, 1])),                # 5x5: single-stone capture -> ko point set
        (suicide_board, torch.tensor([0, 0, 2])),           # 5x5: white plays into the corner -> suicide
        (ko_board, torch.tensor([1, 1, 2])),                # 5x5: occupied point -> illegal
        (big, torch.tensor([9, 9, 1])),                     # 19x19 crowded random board, komi 7.5, no capture
        (_board(["." * 13] * 13), torch.tensor([6, 6, 2])),  # empty 13x13, white move, no capture
    ]
