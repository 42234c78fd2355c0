"""Handheld Tetris engine step: lock the falling piece, clear full rows, score the drop."""
import torch
import torch.nn as nn


class TetrisLineClear(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("line_scores", torch.tensor([0, 40, 100, 300, 1200]))

    def forward(self, board, piece):
        merged = board + piece
        if (merged > 1).any():
            # the piece overlaps locked cells: reject the move, game over
            return board, torch.tensor(0), torch.tensor(0), torch.tensor(1)
        kept = []
        cleared = 0
        for r in range(merged.shape[0]):
            row = merged[r]
            if bool(row.all()):
                cleared += 1
                continue
            kept.append(row)
        if cleared == 0:
            new_board = merged
        elif len(kept) == 0:
            new_board = torch.zeros_like(merged)
        else:
            empty = torch.zeros(cleared, merged.shape[1], dtype=merged.dtype)
            new_board = torch.cat([empty, torch.stack(kept)])
        score = self.line_scores[min(cleared, 4)]
        return new_board, torch.tensor(cleared), score, torch.tensor(0)


def model():
    return TetrisLineClear().eval()


def _board(rows, piece_cells):
    board = torch.tensor([[int(c) for c in r] for r in rows], dtype=torch.long)
    piece = torch.zeros_like(board)
    for r, c in piece_cells:
        piece[r, c] = 1
    return (board, piece)


def example_inputs():
    return _board(["0000000000", "0000000000", "0000000000", "1111011111", "1111011111", "1101111111"],
                  [(1, 4), (2, 4), (3, 4), (4, 4)])


def dynamic_shapes():
    rows = torch.export.Dim("rows", min=2, max=40)
    return ({0: rows}, {0: rows})


def verify_inputs():
    return [
        _board(["0000000000", "0000000000", "1110000000", "1111100000"], [(2, 3), (2, 4), (3, 5), (3, 6)]),
        _board(["0000000000", "0011000000", "0011000000", "1111111111"], [(1, 2), (1, 3), (0, 3), (0, 4)]),
        _board(["1111111100", "1111111100"], [(0, 8), (0, 9), (1, 8), (1, 9)]),
    ]
