"""Slot filling for an on-device assistant: token ids -> BIO tags -> spans.

A BiGRU tagger produces tags; a Python decoder walks the tags, opening spans on B,
extending on I and closing otherwise. Returns the tag ids, the (n_spans, 2) span
table and mean-pooled span embeddings (n_spans is data-dependent, may be 0).
"""
import torch
from torch import nn

VOCAB = 64
EMB = 16
O, B, I = 0, 1, 2


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, EMB)
        self.rnn = nn.GRU(EMB, 16, batch_first=True, bidirectional=True)
        self.out = nn.Linear(32, 3)
        # lexicon prior: ids 10-19 start slots, 20-29 continue slots
        prior = torch.zeros(VOCAB, 3)
        prior[:, O] = 4.0
        prior[10:20, B] = 8.0
        prior[20:30, I] = 8.0
        self.register_buffer("prior", prior)

    def forward(self, ids):
        e = self.emb(ids)
        h, _ = self.rnn(e.unsqueeze(0))
        return self.out(h[0]) + self.prior[ids], e


class SlotFiller(nn.Module):
    def __init__(self):
        super().__init__()
        self.tagger = Tagger()

    def forward(self, ids):  # (L,) int64
        logits, e = self.tagger(ids)
        tags = logits.argmax(-1)
        spans = [torch.zeros(0, 2, dtype=torch.int64)]
        pooled = [torch.zeros(0, EMB)]
        start = torch.full((), -1, dtype=torch.int64)
        for t in range(ids.shape[0] + 1):
            tag = tags[t] if t < ids.shape[0] else torch.tensor(O)
            if start >= 0 and not (tag == I):
                spans.append(torch.stack([start, torch.tensor(t)]).unsqueeze(0))
                pooled.append(e[start:t].mean(0, keepdim=True))
                start = torch.full((), -1, dtype=torch.int64)
            if tag == B:
                start = torch.tensor(t)
        return tags, torch.cat(spans), torch.cat(pooled)


def model():
    torch.manual_seed(0)
    return SlotFiller().eval()


def example_inputs():
    return (torch.tensor([3, 12, 22, 23, 5, 6, 15, 7]),)


def dynamic_shapes():
    return ({0: torch.export.Dim("tokens", min=2, max=128)},)


def verify_inputs():
    return [
        (torch.tensor([1, 2, 3, 4, 5]),),                  # no slots
        (torch.tensor([11, 21, 14, 25, 26, 27]),),         # back-to-back spans, ends in span
        (torch.tensor([40, 17, 33, 22, 18]),),             # stray I, single-token spans
    ]
