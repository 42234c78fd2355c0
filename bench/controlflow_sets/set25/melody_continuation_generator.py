"""Melody continuation for a MIDI sketching tool.

A GRU reads the prompt notes (pitch tokens, 0 = end-of-phrase) and then greedily
continues the melody for up to `max_new` notes, stopping early when it emits the
end-of-phrase token.  A repeated note is discouraged by a fixed penalty on the
previous token.
"""
import torch
import torch.nn as nn
from torch.export import Dim

VOCAB = 24
END = 0


class MelodyGRU(nn.Module):
    def __init__(self, vocab=VOCAB, emb=16, hidden=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        self.cell = nn.GRUCell(emb, hidden)
        self.head = nn.Linear(hidden, vocab)
        self.hidden = hidden
        self.repeat_penalty = 1.5
        with torch.no_grad():
            self.head.weight.mul_(4.0)

    def step(self, tok, h):
        return self.cell(self.emb(tok), h)

    def forward(self, prompt, max_new):
        h = torch.zeros(prompt.shape[0], self.hidden)
        for t in range(prompt.shape[1]):
            h = self.step(prompt[:, t], h)

        prev = prompt[:, -1]
        notes = []
        for _ in range(int(max_new.item())):
            logits = self.head(h)
            logits = logits - self.repeat_penalty * nn.functional.one_hot(prev, VOCAB).float()
            tok = logits.argmax(dim=-1)
            if tok.item() == END:
                break
            notes.append(tok)
            h = self.step(tok, h)
            prev = tok
        if len(notes) == 0:
            return torch.zeros(prompt.shape[0], 0, dtype=torch.long)
        return torch.stack(notes, dim=1)


def model():
    torch.manual_seed(0)
    return MelodyGRU().eval()


def _make(seed, length, max_new):
    g = torch.Generator().manual_seed(seed)
    prompt = torch.randint(1, VOCAB, (1, length), generator=g)
    return prompt, torch.tensor([max_new])


def example_inputs():
    return _make(0, 8, 6)


def dynamic_shapes():
    return ({1: Dim("prompt_len", min=2, max=32)}, None)


def verify_inputs():
    return [_make(s, n, k) for s, n, k in [(1, 5, 10), (12, 3, 10), (1, 9, 5), (2, 12, 0), (2, 14, 1), (7, 28, 12)]]
