"""Othello/Reversi referee: replays a move list on a board (+1 black, -1 white, 0 empty),
flips bracketed discs in all eight directions, ignores illegal inputs, forces passes,
ends the game when neither side can move, and evaluates the final position with a tiny
conv net. Outputs: final board, disc difference after every input move, evaluation.
"""
import torch
import torch.nn as nn

DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def flips_in_direction(board, r, c, dr, dc, player):
    run = []
    rr, cc = r + dr, c + dc
    while 0 <= rr < 8 and 0 <= cc < 8:
        cell = board[rr, cc]
        if cell == -player:
            run.append((rr, cc))
        elif cell == player:
            return run  # bracketed by our own disc: the run flips
        else:
            break  # an empty square ends the run
        rr, cc = rr + dr, cc + dc
    return []


def legal_flips(board, r, c, player):
    if not (0 <= r < 8 and 0 <= c < 8) or board[r, c] != 0:
        return []
    flips = []
    for dr, dc in DIRS:
        flips += flips_in_direction(board, r, c, dr, dc, player)
    return flips


def has_legal_move(board, player):
    for r in range(8):
        for c in range(8):
            if board[r, c] != 0:
                continue
            if legal_flips(board, r, c, player):
                break
        else:
            continue
        return True  # inner loop broke: found a move
    return False


class OthelloReferee(nn.Module):
    def __init__(self):
        super().__init__()
        self.eval_net = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(),
                                      nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 1))

    def forward(self, board, moves):
        board = board.clone()
        player = 1.0
        history = []
        for t in range(moves.shape[0]):
            r, c = int(moves[t, 0]), int(moves[t, 1])
            flips = legal_flips(board, r, c, player)
            if not flips:
                if not has_legal_move(board, player):
                    if not has_legal_move(board, -player):
                        break  # neither side can move: game over
                    player = -player  # forced pass
                history.append(board.sum())
                continue  # illegal input: ignored, same side (or the other after a pass)
            board[r, c] = player
            for fr, fc in flips:
                board[fr, fc] = player
            player = -player
            history.append(board.sum())
        final = board.sum()
        history += [final] * (moves.shape[0] - len(history))
        score = self.eval_net(board.view(1, 1, 8, 8))[0, 0]
        return board, torch.stack(history), score


def model():
    torch.manual_seed(5813)
    return OthelloReferee().eval()


def _start():
    b = torch.zeros(8, 8)
    b[3, 3] = b[4, 4] = -1.0
    b[3, 4] = b[4, 3] = 1.0
    return b


def example_inputs():
    # standard opening; (0, 0) flips nothing for black, (9, 2) is off the board
    moves = torch.tensor([[5, 4], [3, 5], [0, 0], [2, 4], [9, 2], [5, 3], [3, 2]])
    return _start(), moves


def dynamic_shapes():
    return (None, {0: torch.export.Dim("moves", min=2, max=12)})


def verify_inputs():
    # black cannot move anywhere, white can: black must pass, white then wipes black out
    pass_board = torch.zeros(8, 8)
    pass_board[0, 0], pass_board[0, 1] = -1.0, 1.0
    # white's only disc can be bracketed diagonally: black captures it, game ends
    end_board = torch.zeros(8, 8)
    end_board[5, 5], end_board[6, 6] = -1.0, 1.0
    return [
        # legal moves, an empty square that flips nothing, an off-board input
        example_inputs(),
        # forced pass for black, white plays (0, 2), then nobody can move -> game over
        (pass_board, torch.tensor([[5, 5], [0, 2], [7, 7], [1, 1]])),
        # 12 moves: 11 legal greedy-bot moves, the last one repeats an occupied square
        (_start(), torch.tensor([[5, 4], [3, 5], [2, 4], [5, 3], [3, 2], [3, 1], [4, 2], [2, 3],
                                 [2, 1], [4, 1], [5, 1], [5, 1]])),
        # black takes white's last disc, then nobody can move: break, history padded
        (end_board, torch.tensor([[4, 4], [0, 0]])),
    ]
