"""Connect-Four move policy for a game bot.

A small conv net scores the seven columns; a full board returns early, an empty
board or a single legal column plays the leftmost legal move, and a clearly
losing value estimate makes the bot try its second-best column.
"""
import torch
import torch.nn as nn


class ConnectFourPolicy(nn.Module):
    def __init__(self, use_value_head=True):
        super().__init__()
        self.use_value_head = use_value_head
        self.conv = nn.Conv2d(2, 8, 3, padding=1)
        self.policy = nn.Linear(8 * 6 * 7, 7)
        self.value = nn.Linear(8 * 6 * 7, 1)

    def forward(self, board):  # board: [6, 7] int64, 1 = own, 2 = opponent, 0 = empty
        legal = board[0] == 0
        if not legal.any():
            return torch.zeros(7), torch.tensor(-1)
        planes = torch.stack([(board == 1).float(), (board == 2).float()]).unsqueeze(0)
        h = torch.relu(self.conv(planes)).flatten(1)
        logits = self.policy(h)[0] * 4.0
        logits = torch.where(legal, logits, torch.full_like(logits, -1e4))
        probs = torch.softmax(logits, 0)
        if self.use_value_head:  # static
            value = torch.tanh(self.value(h)[0, 0] * 4.0)
        else:
            value = torch.zeros(())
        if (board != 0).sum() == 0 or legal.sum() == 1:
            move = torch.where(legal, torch.arange(7), torch.full((7,), 7)).min()
        elif value < -0.2 and legal.sum() > 2:
            move = logits.topk(2).indices[1]
        else:
            move = logits.argmax()
        return probs, move


def _board(cols, seed):
    g = torch.Generator().manual_seed(seed)
    b = torch.zeros(6, 7, dtype=torch.long)
    for c, h in enumerate(cols):
        for r in range(h):
            b[5 - r, c] = 1 + int(torch.randint(0, 2, (1,), generator=g))
    return b


def model():
    torch.manual_seed(0)
    return ConnectFourPolicy().eval()


def example_inputs():
    return (_board([1, 2, 4, 3, 0, 2, 1], 0),)


def verify_inputs():
    return [
        (_board([6] * 7, 1),),                       # full board: early return
        (_board([0] * 7, 2),),                       # empty board: opening move
        (_board([6, 6, 6, 3, 6, 6, 6], 3),),         # single legal column
        (_board([5, 4, 2, 1, 2, 3, 0], 2),),          # losing: second-best column
        (_board([0, 0, 1, 2, 4, 1, 2], 7),),          # greedy argmax
    ]
