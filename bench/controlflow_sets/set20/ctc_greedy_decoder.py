"""CTC greedy decoder for a keyword-spotting acoustic model.

Frame logits are refined by a residual projection, then collapsed: blanks and
repeats are skipped with `continue`, an end-of-utterance token stops decoding.
Output: token ids [K] (K may be 0) and mean frame confidence.
"""
import torch
import torch.nn as nn


class CtcGreedyDecoder(nn.Module):
    def __init__(self, vocab=12, blank=0, eou=11):
        super().__init__()
        self.blank, self.eou = blank, eou
        self.proj = nn.Linear(vocab, vocab)

    def forward(self, logits):  # logits: [1, T, V]
        logits = logits + 0.05 * self.proj(logits)
        best = logits.argmax(-1)[0]
        conf = torch.softmax(logits, -1).amax(-1).mean()
        tokens = []
        prev = torch.tensor(self.blank)
        for t in range(best.shape[0]):
            tok = best[t]
            if tok == self.eou:
                break
            if tok == self.blank or tok == prev:
                prev = tok
                continue
            tokens.append(tok)
            prev = tok
        out = torch.stack(tokens) if len(tokens) > 0 else torch.zeros(0, dtype=torch.long)
        if out.numel() == 0:
            conf = conf * 0.0
        return out, conf


def _logits(seq, seed):
    g = torch.Generator().manual_seed(seed)
    x = 0.5 * torch.randn(len(seq), 12, generator=g)
    x[torch.arange(len(seq)), torch.tensor(seq)] += 4.0
    return x.unsqueeze(0)


def model():
    torch.manual_seed(0)
    return CtcGreedyDecoder().eval()


def example_inputs():
    return (_logits([0, 3, 3, 0, 5, 5, 5, 0, 0, 7, 0, 7, 2, 0], 0),)


def dynamic_shapes():
    return ({1: torch.export.Dim("frames", min=2, max=200)},)


def verify_inputs():
    return [
        (_logits([0, 0, 0, 0, 0], 1),),                         # only blanks -> empty
        (_logits([0, 4, 4, 11, 6, 6, 0, 1], 2),),               # end-of-utterance stops
        (_logits([11, 2, 3], 3),),                              # immediate stop
        (_logits([9, 9, 9, 1, 2, 0, 2, 8, 8, 0, 0, 3, 10, 10, 0, 6], 4),),
    ]
