"""Chat-history truncation in front of a small dialogue encoder.

The conversation arrives as a flat token stream plus the turn index of every token
(turn 0 is the system prompt).  When it exceeds the context budget, the oldest user /
assistant turns are dropped one by one (the system prompt and the latest turn are
always kept); if the latest turn alone is still too long, it is left-truncated.
"""
import torch
import torch.nn as nn


class DialogueEncoder(nn.Module):
    def __init__(self, vocab=500, dim=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(64, dim)
        self.mix = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, dim)

    def forward(self, tokens):
        pos = torch.arange(tokens.shape[0])
        h = self.embed(tokens) + self.pos(pos)
        _, last = self.mix(h.unsqueeze(0))
        return self.out(last[0, 0])


class HistoryTruncator(nn.Module):
    def __init__(self, budget=48):
        super().__init__()
        self.budget = budget
        self.encoder = DialogueEncoder()

    def forward(self, tokens, turn_ids):
        T = tokens.shape[0]
        if T <= self.budget:
            return self.encoder(tokens), torch.tensor([0])
        n_turns = int(turn_ids[-1]) + 1
        lengths = []
        for k in range(n_turns):
            lengths.append(int((turn_ids == k).sum()))
        total = T
        first = 1
        while total > self.budget and first < n_turns - 1:
            total -= lengths[first]
            first += 1
        keep = (turn_ids == 0) | (turn_ids >= first)
        kept = tokens[keep]
        if kept.shape[0] > self.budget:
            sys_len = lengths[0]
            if sys_len >= self.budget:
                # the system prompt alone overflows: keep its head
                kept = kept[: self.budget]
            else:
                kept = torch.cat([kept[:sys_len], kept[sys_len - self.budget:]])
        return self.encoder(kept), torch.tensor([first - 1])


def model():
    torch.manual_seed(0)
    return HistoryTruncator().eval()


def _chat(g, turn_lengths):
    turn_ids = torch.cat([torch.full((n,), k, dtype=torch.long) for k, n in enumerate(turn_lengths)])
    tokens = torch.randint(1, 500, turn_ids.shape, generator=g)
    return tokens, turn_ids


def example_inputs():
    g = torch.Generator().manual_seed(1)
    return _chat(g, [6, 10, 12, 9, 14])


def dynamic_shapes():
    T = torch.export.Dim("tokens", min=2, max=4096)
    return ({0: T}, {0: T})


def verify_inputs():
    g = torch.Generator().manual_seed(2)
    return [
        _chat(g, [5, 8, 9]),               # fits
        _chat(g, [6, 50]),                 # one huge turn: nothing to drop, left-truncate
        _chat(g, [4, 30, 10, 12]),         # drop exactly one turn
        _chat(g, [8, 7, 9, 6, 11, 5, 10]), # drop several turns
        _chat(g, [3, 20, 20, 45]),         # drop until only the last turn, then truncate it
        _chat(g, [60]),                    # an over-long system prompt and nothing else
    ]
