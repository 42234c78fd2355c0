"""Speech recogniser output stage: acoustic logits plus a learned per-token
language-model prior, frame-wise argmax and CTC collapsing (merge repeats,
drop blanks), returned as a padded id sequence and its length."""
import torch
import torch.nn as nn


class CTCGreedyDecoder(nn.Module):
    def __init__(self, vocab=8, blank=0, prior_weight=0.1):
        super().__init__()
        self.blank = blank
        self.prior = nn.Parameter(torch.randn(vocab) * prior_weight)
        self.frame_proj = nn.Linear(vocab, vocab)
        with torch.no_grad():
            self.frame_proj.weight.copy_(torch.eye(vocab) + 0.02 * torch.randn(vocab, vocab))
            self.frame_proj.bias.zero_()

    def forward(self, logits):
        scores = self.frame_proj(logits).log_softmax(-1) + self.prior
        best = scores.argmax(-1)
        decoded = []
        prev = torch.tensor(self.blank)
        for t in range(best.shape[0]):
            c = best[t]
            if c == prev:
                continue
            prev = c
            if c == self.blank:
                continue
            decoded.append(c)
        length = torch.tensor(len(decoded))
        pad = torch.full((best.shape[0],), -1, dtype=torch.long)
        if decoded:
            ids = torch.stack(decoded)
            pad = torch.cat([ids, pad[ids.shape[0]:]])
        return pad, length


def model():
    torch.manual_seed(0)
    return CTCGreedyDecoder().eval()


def _frames(path, seed):
    """path: winning symbol per frame; other symbols are clearly lower."""
    g = torch.Generator().manual_seed(seed)
    t = len(path)
    logits = torch.randn(t, 8, generator=g) * 0.3
    logits[torch.arange(t), torch.tensor(path)] += 3.0
    return (logits,)


def example_inputs():
    return _frames([0, 3, 3, 0, 5, 5, 5, 2, 0, 0, 2, 7], 0)


def dynamic_shapes():
    return ({0: torch.export.Dim("frames", min=2, max=512)},)


def verify_inputs():
    return [
        _frames([0, 0, 0, 0, 0], 1),
        _frames([4, 4, 1, 1, 1, 0, 1, 6, 6, 0, 3, 3, 3, 3, 5, 0, 0, 2], 2),
        _frames([6, 6, 6], 3),
    ]
