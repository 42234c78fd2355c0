"""Dominoes (block/draw game): play out a hand against one open end.

Tiles are [a, b] pip pairs.  While tiles remain, the player plays the best
matching tile (doubles first, then the heaviest tile; ties by hand order),
flipping it to match the open end; if nothing matches, a tile is drawn from
the boneyard, and when the boneyard is exhausted the player is blocked.  A
small value network estimates the chance of winning from what is left.
"""
import torch
import torch.nn as nn


class DominoPlayer(nn.Module):
    def __init__(self):
        super().__init__()
        self.value_net = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))

    def playable(self, hand, used, end):
        return ((hand[:, 0] == end) | (hand[:, 1] == end)) & ~used

    def tile_priority(self, hand):
        is_double = (hand[:, 0] == hand[:, 1]).long()
        return is_double * 1000 + (hand[:, 0] + hand[:, 1]) * 40 - torch.arange(hand.shape[0])

    def forward(self, hand, boneyard, open_end):
        used = torch.zeros(hand.shape[0], dtype=torch.bool)
        end = open_end.clone()
        drawn = 0
        chain = []
        while not used.all():
            mask = self.playable(hand, used, end)
            if not mask.any():
                if drawn >= boneyard.shape[0]:
                    break
                hand = torch.cat([hand, boneyard[drawn:drawn + 1]])
                used = torch.cat([used, torch.zeros(1, dtype=torch.bool)])
                drawn += 1
                continue
            score = torch.where(mask, self.tile_priority(hand), torch.full_like(mask, -10 ** 6, dtype=torch.long))
            i = int(score.argmax())
            a, b = hand[i, 0], hand[i, 1]
            if a == end:
                end = b
            else:
                a, b = b, a
                end = b
            used[i] = True
            chain.append(torch.stack([a, b]))
        played = torch.stack(chain) if chain else hand.new_zeros((0, 2))
        left = hand[~used]
        feats = torch.stack([torch.tensor(float(left.shape[0])), left.sum().float(), torch.tensor(float(drawn))])
        win_prob = torch.sigmoid(self.value_net(feats / 10.0)).squeeze(-1)
        return played, left.sum(), torch.tensor(drawn), win_prob


def model():
    torch.manual_seed(1909)
    return DominoPlayer().eval()


def example_inputs():
    hand = torch.tensor([[6, 4], [4, 4], [2, 5], [1, 3], [5, 0], [3, 3], [6, 6]])
    boneyard = torch.tensor([[0, 1], [3, 2], [1, 1], [2, 6]])
    return hand, boneyard, torch.tensor(4)


def dynamic_shapes():
    return ({0: torch.export.Dim("hand", min=2, max=28)}, {0: torch.export.Dim("boneyard", min=2, max=28)}, None)


def verify_inputs():
    g = torch.Generator().manual_seed(19)
    tiles = torch.tensor([[a, b] for a in range(7) for b in range(a, 7)])
    perm = torch.randperm(28, generator=g)
    return [
        # example: double played first, tiles flipped and not flipped, draws the
        # whole boneyard along the way and still goes out
        example_inputs(),
        # whole hand goes out without drawing (loop ends on the tensor condition)
        (torch.tensor([[2, 5], [5, 5], [1, 5]]), torch.tensor([[0, 0], [6, 6]]), torch.tensor(2)),
        # nothing matches at all: draws the whole boneyard, plays nothing, blocked
        (torch.tensor([[0, 0], [1, 2]]), torch.tensor([[0, 1], [2, 2]]), torch.tensor(6)),
        # random deal: 7-tile hand, 14-tile boneyard; blocked with tiles left (break)
        (tiles[perm[:7]], tiles[perm[7:21]], torch.tensor(3)),
    ]
