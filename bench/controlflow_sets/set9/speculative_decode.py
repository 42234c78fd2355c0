"""One round of greedy speculative decoding for an on-device assistant.

A cheap draft LM proposes `n_draft` tokens (a runtime tensor, possibly 0); the larger
target LM scores them and accepts the longest prefix whose probability ratio
p_target / p_draft stays above `accept_ratio`. At the first rejection the target's
own token is emitted instead and decoding stops; if everything is accepted a bonus
token is appended. Output length is data dependent (1 .. n_draft + 1 tokens).
"""

import torch
import torch.nn as nn
from torch.export import Dim


class TinyLM(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.cell = nn.GRUCell(dim, dim)
        self.out = nn.Linear(dim, vocab)

    def encode(self, tokens):
        h = torch.zeros(1, self.cell.hidden_size)
        for i in range(tokens.shape[0]):
            h = self.cell(self.emb(tokens[i : i + 1]), h)
        return h

    def step(self, h, tok):
        return self.cell(self.emb(tok.view(1)), h)

    def probs(self, h):
        return self.out(h)[0].softmax(-1)


class SpeculativeDecoder(nn.Module):
    def __init__(self, vocab=64, accept_ratio=0.6):
        super().__init__()
        self.draft = TinyLM(vocab, 32)  # e.g. a pruned / low-bit copy of the target
        self.target = TinyLM(vocab, 32)
        self.accept_ratio = accept_ratio

    def forward(self, prefix, n_draft):
        hd = self.draft.encode(prefix)
        ht = self.target.encode(prefix)
        drafted, q_probs = [], []
        for _ in range(int(n_draft.item())):
            q = self.draft.probs(hd)
            tok = q.argmax()
            drafted.append(tok)
            q_probs.append(q[tok])
            hd = self.draft.step(hd, tok)
        if len(drafted) == 0:
            return self.target.probs(ht).argmax().view(1)
        accepted = []
        for tok, q in zip(drafted, q_probs):
            p = self.target.probs(ht)
            if p[tok] / q < self.accept_ratio:
                accepted.append(p.argmax())  # target's correction, stop here
                break
            accepted.append(tok)
            ht = self.target.step(ht, tok)
        else:
            accepted.append(self.target.probs(ht).argmax())  # bonus token
        return torch.stack(accepted)


def model():
    torch.manual_seed(0)
    m = SpeculativeDecoder()
    with torch.no_grad():
        m.target.out.weight.mul_(4.0)
        # the draft approximates the target (as after distillation / quantization)
        for pd, pt in zip(m.draft.parameters(), m.target.parameters()):
            pd.copy_(pt + 0.4 * pt.abs().mean() * torch.randn_like(pt))
    return m.eval()


def example_inputs():
    return (torch.tensor([3, 17, 42, 8, 21, 5]), torch.tensor([4]))


def dynamic_shapes():
    return {"prefix": {0: Dim("prefix_len", min=2, max=64)}, "n_draft": None}


def verify_inputs():
    return [
        (torch.tensor([3, 17, 42, 8, 21, 5]), torch.tensor([0])),
        (torch.tensor([9, 9, 1, 60, 33, 12, 7, 2, 44, 50, 19]), torch.tensor([6])),
        (torch.tensor([1, 2]), torch.tensor([1])),
        (torch.arange(30) * 2 % 64, torch.tensor([3])),
    ]
