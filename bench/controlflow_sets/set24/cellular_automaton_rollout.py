"""Conway's Game of Life rollout on a batch of boards.

The number of generations is an input tensor.  The rollout stops early when
every board has died out or when the whole batch has reached a still life.
Boundaries are toroidal (wrap) or dead, chosen by a config flag.  Neighbour
counts come from a 3x3 convolution; birth/survival thresholds are placed at
half-integers so float sums never sit on a decision boundary.
Returns the final boards and the population after every simulated step.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LifeRule(nn.Module):
    def __init__(self, wrap=True):
        super().__init__()
        self.wrap = wrap
        k = torch.ones(1, 1, 3, 3)
        k[0, 0, 1, 1] = 0.0
        self.register_buffer("kernel", k)

    def forward(self, board):
        x = board.unsqueeze(1)
        if self.wrap:
            x = F.pad(x, (1, 1, 1, 1), mode="circular")
        else:
            x = F.pad(x, (1, 1, 1, 1))
        n = F.conv2d(x, self.kernel).squeeze(1)
        alive = board > 0.5
        born = (n > 2.5) & (n < 3.5)
        survive = alive & (n > 1.5) & (n < 3.5)
        return (born | survive).float()


class LifeRollout(nn.Module):
    def __init__(self, wrap=True):
        super().__init__()
        self.rule = LifeRule(wrap)

    def forward(self, board, generations):
        population = []
        for _ in range(int(generations.item())):
            nxt = self.rule(board)
            population.append(nxt.sum(dim=(1, 2)))
            if not nxt.any():
                board = nxt
                break                      # everything died
            if torch.equal(nxt, board):
                break                      # still life reached
            board = nxt
        if len(population) == 0:
            return board, board.new_zeros(0, board.shape[0])
        return board, torch.stack(population)


def model():
    return LifeRollout(wrap=True).eval()


def _place(H, W, B, patterns):
    boards = torch.zeros(B, H, W)
    for b, cells in enumerate(patterns):
        for r, c in cells:
            boards[b, r, c] = 1.0
    return boards


GLIDER = [(0, 1), (1, 2), (2, 0), (2, 1), (2, 2)]
BLOCK = [(1, 1), (1, 2), (2, 1), (2, 2)]
BLINKER = [(2, 1), (2, 2), (2, 3)]
LONELY = [(1, 1), (4, 4)]


def example_inputs():
    return (_place(8, 8, 2, [GLIDER, BLINKER]), torch.tensor(4))


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=2, max=16),
             1: torch.export.Dim("height", min=5, max=48),
             2: torch.export.Dim("width", min=5, max=48)}, None)


def verify_inputs():
    g = torch.Generator().manual_seed(14)
    soup = (torch.rand(3, 16, 12, generator=g) > 0.6).float()
    return [
        (_place(8, 8, 2, [GLIDER, BLOCK]), torch.tensor(0)),      # zero generations
        (_place(6, 7, 2, [LONELY, LONELY]), torch.tensor(5)),     # dies out immediately
        (_place(6, 6, 2, [BLOCK, BLOCK]), torch.tensor(5)),       # still life at step 1
        (soup, torch.tensor(6)),                                  # random soup, runs all steps
        (_place(10, 9, 2, [BLINKER, GLIDER]), torch.tensor(1)),   # one generation
    ]
