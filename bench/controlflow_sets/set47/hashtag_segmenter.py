"""Hashtag segmenter / encoder (#MachineLearning2024 -> machine | learning | 2024).

Constructs: 1 (if on character classes), 2 (`boundary` assigned in both
branches), 3 (`or` of tensor predicates), 5 (for over the dynamic length with
append + stack), 9 (fold_case config flag, dropout with self.training).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

# ids: 0 pad, 1..26 lowercase, 27..52 uppercase, 53..62 digits


class HashtagSegmenter(nn.Module):
    def __init__(self, hidden=16, fold_case=True):
        super().__init__()
        self.fold_case = fold_case
        self.hidden = hidden
        self.emb = nn.Embedding(63, 8)
        self.cell = nn.GRUCell(8, hidden)

    def forward(self, ids):
        h = torch.zeros(1, self.hidden)
        prev_digit = ids[0] >= 53
        words, marks = [], []
        for t in range(ids.shape[0]):
            c = ids[t]
            is_upper = (c >= 27) & (c <= 52)
            is_digit = c >= 53
            if t > 0 and (is_upper or is_digit != prev_digit):
                words.append(h.squeeze(0))
                h = torch.zeros(1, self.hidden)
                boundary = torch.ones(())
            else:
                boundary = torch.zeros(())
            marks.append(boundary)
            cid = torch.where(is_upper, c - 26, c) if self.fold_case else c
            e = F.dropout(self.emb(cid).unsqueeze(0), 0.1, self.training)
            h = self.cell(e, h)
            prev_digit = is_digit
        words.append(h.squeeze(0))
        return torch.stack(marks), torch.stack(words).mean(0)


def model():
    torch.manual_seed(4)
    return HashtagSegmenter().eval()


def _ids(text):
    out = []
    for ch in text:
        if ch.islower():
            out.append(ord(ch) - 96)
        elif ch.isupper():
            out.append(ord(ch) - 64 + 26)
        else:
            out.append(int(ch) + 53)
    return torch.tensor(out, dtype=torch.long)


def example_inputs():
    return (_ids("MachineLearning2024"),)


def dynamic_shapes():
    return ({0: torch.export.Dim("chars", min=2, max=40)},)


def verify_inputs():
    return [
        example_inputs(),                         # uppercase boundaries + letter->digit boundary
        (_ids("summer"),),                        # no boundary at all
        (_ids("go"),),                            # min length
        (_ids("2024"),),                          # starts with digits, no boundary
        (_ids("route66Kicks"),),                  # letter->digit and digit->Upper
        (_ids("ThrowbackThursdayVibesAndSunsets99"),),  # long camel case
        (_ids("abcdefghijklmnopqrstuvwxyzABCDEF1234"[:40]),),  # near max length
    ]
