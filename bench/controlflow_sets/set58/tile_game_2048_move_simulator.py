"""2048 puzzle engine used for bot self-play replays: applies a move list to a batch of
boards (slide + single merge per pair), skips moves that change nothing, spawns a tile
deterministically, stops a game on win or when no move is left, and scores the final
positions with a small learned value head.
"""
import torch
import torch.nn as nn

LEFT, RIGHT, UP, DOWN = 0, 1, 2, 3


def merge_line(line):
    """Slide one row toward index 0 and merge equal neighbours once."""
    tiles = line[line != 0]
    merged = []
    gained = torch.zeros((), dtype=line.dtype)
    i = 0
    while i < tiles.shape[0]:
        if i + 1 < tiles.shape[0] and tiles[i] == tiles[i + 1]:
            merged.append(tiles[i] * 2)
            gained = gained + tiles[i] * 2
            i += 2
        else:
            merged.append(tiles[i])
            i += 1
    out = torch.zeros_like(line)
    if merged:
        out[:len(merged)] = torch.stack(merged)
    return out, gained


def slide(board, direction):
    # rotate so every move is a slide to the left, then rotate back
    b = {LEFT: board, RIGHT: board.flip(1), UP: board.t(), DOWN: board.t().flip(1)}[direction]
    rows, gain = [], torch.zeros((), dtype=board.dtype)
    for r in range(4):
        row, g = merge_line(b[r])
        rows.append(row)
        gain = gain + g
    out = torch.stack(rows)
    out = {LEFT: out, RIGHT: out.flip(1), UP: out.t(), DOWN: out.flip(1).t()}[direction]
    return out, gain


def can_move(board):
    if (board == 0).any():
        return True
    for d in (LEFT, RIGHT, UP, DOWN):
        moved, _ = slide(board, d)
        if not torch.equal(moved, board):
            return True
    return False


class Game2048Replay(nn.Module):
    def __init__(self, win_tile=2048):
        super().__init__()
        self.win_tile = win_tile
        self.value = nn.Sequential(nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, boards, moves):
        finals, scores = [], []
        for b in range(boards.shape[0]):
            board = boards[b].clone()
            score = torch.zeros((), dtype=board.dtype)
            for t in range(moves.shape[0]):
                new, gain = slide(board, int((moves[t] + b) % 4))
                if torch.equal(new, board):
                    continue  # nothing slides: the move is ignored
                board, score = new, score + gain
                empty = torch.nonzero(board.flatten() == 0).flatten()
                cell = empty[(7 * t + b) % empty.shape[0]]  # replay-deterministic spawn
                board[cell // 4, cell % 4] = 4 if gain >= 64 else 2
                if (board >= self.win_tile).any() or not can_move(board):
                    break  # game over: won, or the board is locked
            finals.append(board)
            scores.append(score)
        finals = torch.stack(finals)
        logb = torch.log2(finals.clamp(min=1).float()).flatten(1)
        return finals, torch.stack(scores), self.value(logb / 11.0).squeeze(1)


def model():
    torch.manual_seed(5812)
    return Game2048Replay().eval()


def _boards(rows):
    return torch.tensor(rows, dtype=torch.int64)


OPENING = [[0, 2, 0, 0], [0, 0, 0, 0], [0, 0, 2, 0], [0, 0, 0, 0]]
MIDGAME = [[2, 4, 8, 16], [0, 4, 8, 2], [0, 0, 2, 2], [0, 0, 0, 4]]
# checkerboard with one gap: sliding left and spawning a 2 locks it completely
LOCKING = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [0, 4, 2, 4]]
FULL = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 8, 8], [4, 2, 4, 2]]  # no gap, but 8+8 can merge
NEAR_WIN = [[1024, 1024, 0, 0], [8, 4, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]]


def example_inputs():
    return _boards([LOCKING, OPENING, MIDGAME]), torch.tensor([0, 2, 1, 3, 0, 0, 2, 1])


def dynamic_shapes():
    return ({0: torch.export.Dim("games", min=2, max=16)}, {0: torch.export.Dim("moves", min=2, max=20)})


def verify_inputs():
    g = torch.Generator().manual_seed(12)
    rand_boards = 2 ** torch.randint(1, 5, (16, 4, 4), generator=g)
    rand_boards = torch.where(torch.rand(16, 4, 4, generator=g) < 0.4, 0, rand_boards)
    return [
        # locking board stops after one move; opening; midgame with merges (gain >= 64: spawn 4)
        example_inputs(),
        # 2 games x 2 moves: near-win board merges 1024+1024 -> 2048 and stops
        (_boards([NEAR_WIN, OPENING]), torch.tensor([0, 1])),
        # 16 random boards x 20 moves: ignored moves, full boards that can still merge
        (rand_boards, torch.randint(0, 4, (20,), generator=g)),
        # left on a packed row that cannot slide (ignored move), then up; full board with a
        # mergeable pair keeps playing
        (_boards([[[2, 4, 8, 16], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]], FULL]),
         torch.tensor([0, 2, 3])),
    ]
