"""Scrabble move scorer for a word-game engine.

A move is a list of placed tiles (row, col, letter 1..26) on a 15x15 board that
holds the letters already played (0 = empty).  The scorer validates the move
(one line, no gaps, on empty squares, connected to the existing tiles or the
centre star), scores the main word and every cross word with premium squares
that only count under newly placed tiles, adds the 50-point bingo for using
all seven tiles and asks a small learned model how good the remaining rack is.
"""
import torch
import torch.nn as nn

SIZE = 15
RACK = 7

_TW = [(0, 0), (0, 7), (7, 0)]
_DW = [(1, 1), (2, 2), (3, 3), (4, 4), (7, 7)]
_TL = [(1, 5), (5, 1), (5, 5)]
_DL = [(0, 3), (2, 6), (3, 0), (3, 7), (6, 2), (6, 6), (7, 3)]
_VALUES = [0, 1, 3, 3, 2, 1, 4, 2, 4, 1, 8, 5, 1, 3, 1, 1, 3, 10, 1, 1, 1, 1, 4, 4, 8, 4, 10]


def _premium(squares, factor):
    grid = torch.ones(SIZE, SIZE)
    for r, c in squares:
        for rr, cc in ((r, c), (r, SIZE - 1 - c), (SIZE - 1 - r, c), (SIZE - 1 - r, SIZE - 1 - c),
                       (c, r), (c, SIZE - 1 - r), (SIZE - 1 - c, r), (SIZE - 1 - c, SIZE - 1 - r)):
            grid[rr, cc] = factor
    return grid


class LeaveEvaluator(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(27, 8, padding_idx=0)
        self.fc = nn.Linear(8, 1)

    def forward(self, rack):
        tiles = rack[rack > 0]
        if tiles.numel() == 0:
            return torch.zeros(1)       # rack emptied: the bag refills it
        return 5.0 * torch.tanh(self.fc(self.emb(tiles).mean(0)))


class MoveScorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.leave = LeaveEvaluator()
        self.bingo_bonus = 50.0
        self.register_buffer("letter_values", torch.tensor(_VALUES, dtype=torch.float32))
        self.register_buffer("word_mult", torch.where(_premium(_TW, 3.0) > 1, 3.0, _premium(_DW, 2.0)))
        self.register_buffer("letter_mult", torch.where(_premium(_TL, 3.0) > 1, 3.0, _premium(_DL, 2.0)))

    def word_start(self, board, r, c, dr, dc):
        while r - dr >= 0 and c - dc >= 0 and board[r - dr, c - dc] != 0:
            r, c = r - dr, c - dc
        return r, c

    def score_word(self, board, new_mask, r, c, dr, dc):
        r, c = self.word_start(board, r, c, dr, dc)
        total = torch.zeros(())
        mult = torch.ones(())
        length = 0
        while r < SIZE and c < SIZE and board[r, c] != 0:
            value = self.letter_values[board[r, c]]
            if new_mask[r, c]:
                value = value * self.letter_mult[r, c]
                mult = mult * self.word_mult[r, c]
            total = total + value
            length += 1
            r, c = r + dr, c + dc
        return total * mult, length

    def forward(self, placements, board, rack_leave):
        # placements: (M, 3) int64 row, col, letter; board: (15, 15) int64; rack_leave: (7,) int64
        invalid = (torch.zeros(1), torch.tensor(0), torch.zeros(1))
        rows, cols, letters = placements[:, 0], placements[:, 1], placements[:, 2]
        if (rows == rows[0]).all():
            dr, dc = 0, 1
            span = int(cols.max() - cols.min()) + 1
        elif (cols == cols[0]).all():
            dr, dc = 1, 0
            span = int(rows.max() - rows.min()) + 1
        else:
            return invalid
        if (board[rows, cols] != 0).any():
            return invalid

        b = board.clone()
        b[rows, cols] = letters
        new_mask = torch.zeros(SIZE, SIZE, dtype=torch.bool)
        new_mask[rows, cols] = True

        main, length = self.score_word(b, new_mask, int(rows.min()), int(cols.min()), dr, dc)
        if length < span:
            return invalid      # a gap between the placed tiles

        cross = torch.zeros(())
        n_cross = 0
        for i in range(placements.shape[0]):
            s, n = self.score_word(b, new_mask, int(rows[i]), int(cols[i]), dc, dr)
            if n > 1:
                cross = cross + s
                n_cross += 1
        hooks_existing = length > placements.shape[0] or n_cross > 0
        if not hooks_existing and not bool(new_mask[SIZE // 2, SIZE // 2]):
            return invalid      # floating word

        score = main + cross
        if placements.shape[0] == RACK:
            score = score + self.bingo_bonus
        return score.reshape(1), torch.tensor(1), self.leave(rack_leave)


def model():
    torch.manual_seed(5612)
    return MoveScorer().eval()


def _word(s):
    return [ord(ch) - ord("a") + 1 for ch in s]


def _board_with_cat():
    board = torch.zeros(SIZE, SIZE, dtype=torch.long)
    board[7, 6:9] = torch.tensor(_word("cat"))
    return board


def _move(cells, word):
    return torch.tensor([[r, c, l] for (r, c), l in zip(cells, _word(word))])


def _rack(s):
    letters = _word(s) + [0] * (RACK - len(s))
    return torch.tensor(letters)


def example_inputs():
    # "cow" down from the C of CAT: o, w under it
    return (_move([(8, 6), (9, 6)], "ow"), _board_with_cat(), _rack("eeirt"))


def dynamic_shapes():
    m = torch.export.Dim("tiles", min=2, max=7)
    return ({0: m}, None, None)


def verify_inputs():
    edge = torch.zeros(SIZE, SIZE, dtype=torch.long)
    edge[14, 0:3] = torch.tensor(_word("sun"))
    return [
        # vertical 2-tile play extending C down to COW (word_start walks up), no cross words
        example_inputs(),
        # horizontal 3 tiles under A,T: cross words AX and TO, main word XON
        (_move([(8, 7), (8, 8), (8, 9)], "xon"), _board_with_cat(), _rack("aei")),
        # tiles not in one line -> invalid
        (_move([(8, 7), (9, 8)], "no"), _board_with_cat(), _rack("aeiou")),
        # placing on the occupied A -> invalid
        (_move([(7, 7), (7, 9)], "os"), _board_with_cat(), _rack("aeiou")),
        # gap between tiles at columns 10 and 12 -> invalid
        (_move([(7, 10), (7, 12)], "se"), _board_with_cat(), _rack("aeiou")),
        # floating word far from CAT and off the centre -> invalid
        (_move([(2, 2), (2, 3), (2, 4)], "dog"), _board_with_cat(), _rack("aei")),
        # first move on an empty board through the centre star (double word)
        (_move([(7, 5), (7, 6), (7, 7), (7, 8)], "quiz"), torch.zeros(SIZE, SIZE, dtype=torch.long), _rack("aei")),
        # max 7 tiles: bingo on row 8 under CAT, rack emptied (leave = 0)
        (_move([(8, 2), (8, 3), (8, 4), (8, 5), (8, 6), (8, 7), (8, 8)], "jumpers"), _board_with_cat(), _rack("")),
        # vertical play running down to the bottom edge, hooking SUN on row 14
        (_move([(12, 1), (13, 1)], "ou"), edge, _rack("rst")),
    ]
