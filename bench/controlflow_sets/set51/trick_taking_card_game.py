"""Four-player trick-taking card game (whist-style) self-play rollout.

Hands are suits (0..3) and ranks (2..14).  A small policy net scores cards;
players must follow the led suit when they can; the trump suit (config)
beats everything else.  Returns tricks won per player and the ranks played
in each trick.
"""
import torch
import torch.nn as nn

N_PLAYERS = 4


class CardPolicy(nn.Module):
    def __init__(self):
        super().__init__()
        self.score = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))

    def forward(self, feats):
        return self.score(feats).squeeze(-1)


class TrickTaker(nn.Module):
    def __init__(self, trump=3):
        super().__init__()
        self.trump = trump
        self.policy = CardPolicy()

    def legal_mask(self, suits_p, played_p, lead_suit):
        mask = ~played_p
        if lead_suit is not None:
            follow = mask & (suits_p == lead_suit)
            if follow.any():
                return follow
        return mask

    def beats(self, suit, rank, best_suit, best_rank):
        same_higher = (suit == best_suit) & (rank > best_rank)
        trumps_it = (suit == self.trump) & (best_suit != self.trump)
        return bool(same_higher | trumps_it)

    def trick_winner(self, trick):
        best = 0
        for k in range(1, len(trick)):
            _, suit, rank = trick[k]
            _, best_suit, best_rank = trick[best]
            if self.beats(suit, rank, best_suit, best_rank):
                best = k
        return trick[best][0]

    def forward(self, suits, ranks):
        n_cards = suits.shape[1]
        played = torch.zeros(N_PLAYERS, n_cards, dtype=torch.bool)
        won = torch.zeros(N_PLAYERS, dtype=torch.long)
        leader = 0
        history = []
        for _ in range(n_cards):
            lead_suit = None
            trick = []
            for k in range(N_PLAYERS):
                p = (leader + k) % N_PLAYERS
                mask = self.legal_mask(suits[p], played[p], lead_suit)
                is_lead = (suits[p] == lead_suit).float() if lead_suit is not None else torch.zeros(n_cards)
                feats = torch.stack([ranks[p] / 14.0, (suits[p] == self.trump).float(), is_lead], dim=1)
                score = self.policy(feats).masked_fill(~mask, -1e9)
                idx = int(score.argmax().item())
                played[p, idx] = True
                if lead_suit is None:
                    lead_suit = suits[p, idx]
                trick.append((p, suits[p, idx], ranks[p, idx]))
            leader = self.trick_winner(trick)
            won[leader] += 1
            history.append(torch.stack([c[2] for c in trick]))
        return won, torch.stack(history)


def model():
    torch.manual_seed(5115)
    return TrickTaker().eval()


def _deal(n_cards, seed):
    g = torch.Generator().manual_seed(seed)
    deck = torch.randperm(52, generator=g)[: N_PLAYERS * n_cards].reshape(N_PLAYERS, n_cards)
    return deck // 13, (deck % 13 + 2).float()


def example_inputs():
    return _deal(6, 1)


def dynamic_shapes():
    c = torch.export.Dim("cards_per_hand", min=2, max=13)
    return ({1: c}, {1: c})


def verify_inputs():
    # min hand: player 1 void in the led suit (must discard / may trump)
    suits_min = torch.tensor([[0, 0], [3, 3], [0, 1], [0, 2]])
    ranks_min = torch.tensor([[14.0, 2.0], [5.0, 6.0], [10.0, 3.0], [12.0, 9.0]])
    return [
        # example: follow suit and voids, trumps played, leader changes
        example_inputs(),
        # min: void player trumps the lead -> trump wins
        (suits_min, ranks_min),
        # max: full 52-card deal, 13 tricks
        _deal(13, 2),
    ]
