"""Match-3 puzzle game board resolver: after a swap, repeatedly clear every
horizontal/vertical run of 3+ equal gems, let the gems above fall, refill each
column from the level's deterministic drop queue (empty cells once the queue
runs dry), and score each cascade with learned per-colour gem values and a
combo multiplier."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim

EMPTY = -1


def find_matches(board):
    real = board >= 0
    h = (board[:, :-2] == board[:, 1:-1]) & (board[:, 1:-1] == board[:, 2:]) & real[:, :-2]
    v = (board[:-2, :] == board[1:-1, :]) & (board[1:-1, :] == board[2:, :]) & real[:-2, :]
    h = h.to(torch.int64)
    v = v.to(torch.int64)
    hit = F.pad(h, (0, 2)) + F.pad(h, (1, 1)) + F.pad(h, (2, 0))
    hit = hit + F.pad(v, (0, 0, 0, 2)) + F.pad(v, (0, 0, 1, 1)) + F.pad(v, (0, 0, 2, 0))
    return hit > 0


def collapse_column(column, cleared, queue, ptr):
    kept = [column[r] for r in range(column.shape[0]) if not cleared[r]]
    fresh = []
    for _ in range(column.shape[0] - len(kept)):
        if ptr >= queue.shape[0]:
            fresh.append(torch.tensor(EMPTY))
            continue
        fresh.append(queue[ptr])
        ptr += 1
    # new gems enter at the top (row 0); survivors keep their order at the bottom
    return torch.stack(fresh[::-1] + kept), ptr


class CascadeResolver(nn.Module):
    def __init__(self):
        super().__init__()
        self.gem_value = nn.Embedding(5, 1)
        self.max_cascades = 20
        self.combo_step = 0.5

    def forward(self, board, queue):
        # board: [8, 8] gem colours 0..4 (row 0 = top); queue: [Q] colours dropped in, in order
        ptr = 0
        cascades = 0
        score = torch.zeros(())
        matches = find_matches(board)
        while matches.any() and cascades < self.max_cascades:
            values = self.gem_value(board.clamp(min=0)).squeeze(-1).abs() + 1.0
            score = score + (values * matches.float()).sum() * (1.0 + self.combo_step * cascades)
            columns = []
            for c in range(board.shape[1]):
                if not matches[:, c].any():
                    columns.append(board[:, c])
                    continue
                col, ptr = collapse_column(board[:, c], matches[:, c], queue, ptr)
                columns.append(col)
            board = torch.stack(columns, 1)
            cascades += 1
            matches = find_matches(board)
        return board, score, torch.tensor([cascades, ptr])


def model():
    torch.manual_seed(5220)
    return CascadeResolver().eval()


def _no_match_board(seed):
    # a checker-like pattern of 5 colours that has no run of 3
    g = torch.Generator().manual_seed(seed)
    base = (torch.arange(8)[:, None] * 2 + torch.arange(8)[None, :]) % 5
    return (base + int(torch.randint(0, 5, (), generator=g))) % 5


def example_inputs():
    board = _no_match_board(1)
    board[3, 2:5] = 4  # a fresh horizontal run of three
    queue = torch.tensor([0, 1, 2, 3, 0, 1, 2, 3, 4, 4, 4, 0, 1, 2])
    return board, queue


def dynamic_shapes():
    return None, {0: Dim("drop_queue", min=2, max=128)}


def verify_inputs():
    quiet = _no_match_board(2)
    cascade = _no_match_board(3)
    cascade[5, 0:3] = 1
    cascade[2:5, 6] = 3
    g = torch.Generator().manual_seed(4)
    long_queue = torch.randint(0, 5, (128,), generator=g)
    same = torch.zeros(8, 8, dtype=torch.int64)
    chain = _no_match_board(2)
    chain[5:8, 0] = 0
    return [
        example_inputs(),                                  # one horizontal run cleared, three columns refilled
        (quiet, torch.tensor([0, 1])),                     # min queue, no match at all -> while never runs
        (cascade, long_queue),                             # max queue, horizontal + vertical runs, untouched columns kept
        (same, torch.tensor([2, 2])),                      # whole board one colour: queue runs dry -> EMPTY cells
        (chain, torch.zeros(100, dtype=torch.int64)),      # queue keeps re-forming the same vertical run -> cascade cap (20)
    ]
