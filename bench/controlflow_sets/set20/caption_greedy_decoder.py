"""Image-caption greedy decoder with a token budget and repetition penalty.

A GRU cell attends over encoder regions (dynamic count); each step penalises
tokens already emitted (the list is read back inside the loop), favours
end-of-sentence as the caption grows, and stops on EOS or budget exhaustion.
"""
import torch
import torch.nn as nn


class CaptionDecoder(nn.Module):
    def __init__(self, vocab=16, dim=16, bos=1, eos=2):
        super().__init__()
        self.bos, self.eos = bos, eos
        self.embed = nn.Embedding(vocab, dim)
        self.cell = nn.GRUCell(2 * dim, dim)
        self.out = nn.Linear(dim, vocab)

    def forward(self, regions, budget):  # regions: [1, S, D]; budget: [] int64
        mem = regions[0]
        h = torch.tanh(mem.mean(0))
        tok = torch.tensor(self.bos)
        steps = torch.zeros((), dtype=torch.long)
        emitted = []
        while steps < budget:
            att = torch.softmax(mem @ h, 0)
            ctx = att @ mem
            h = self.cell(torch.cat([self.embed(tok), ctx]).unsqueeze(0), h.unsqueeze(0))[0]
            logits = 3.0 * self.out(h)
            for prev in emitted:
                logits = logits - 1.5 * (torch.arange(logits.shape[0]) == prev).float()
            logits = logits + 0.9 * steps.float() * (torch.arange(logits.shape[0]) == self.eos).float()
            tok = logits.argmax()
            steps = steps + 1
            if tok == self.eos:
                break
            emitted.append(tok)
        if len(emitted) == 0:
            return torch.zeros(0, dtype=torch.long), steps
        return torch.stack(emitted), steps


def _regions(S, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(1, S, 16, generator=g)


def model():
    torch.manual_seed(0)
    return CaptionDecoder().eval()


def example_inputs():
    return (_regions(6, 0), torch.tensor(12))


def dynamic_shapes():
    return ({1: torch.export.Dim("regions", min=2, max=49)}, None)


def verify_inputs():
    return [
        (_regions(3, 1), torch.tensor(0)),     # zero budget: no step
        (_regions(20, 2), torch.tensor(1)),    # budget runs out before EOS
        (_regions(9, 3), torch.tensor(12)),
    ]
