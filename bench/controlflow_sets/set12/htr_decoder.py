"""Handwriting line recogniser with a greedy (beam-free) CTC decoder and a bigram
language-model bonus.

A small conv encoder maps a text-line image (1, 1, 16, W) to per-column log-probs.
The decoder walks the columns: it adds a bigram bonus for the previously emitted
character, picks the best symbol, skips blanks and repeats, and stops at an
end-of-line symbol or when the maximum length is reached. Output length is data dependent.
"""
import torch
from torch import nn
import torch.nn.functional as F

VOCAB = 12  # 0 = blank, 1 = end-of-line, 2.. = characters


class LineEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, 3, padding=1)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1)
        self.head = nn.Conv1d(32 * 4, VOCAB, 1)
        with torch.no_grad():
            self.head.bias[1] -= 0.1  # end-of-line prior

    def forward(self, img):
        h = F.max_pool2d(torch.relu(self.conv1(img)), (2, 1))
        h = F.max_pool2d(torch.relu(self.conv2(h)), (2, 1))  # (1, 32, 4, W)
        h = h.flatten(1, 2)
        return F.log_softmax(self.head(h)[0].transpose(0, 1) * 3.0, dim=-1)  # (W, VOCAB)


class GreedyLMDecoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = LineEncoder()
        self.bigram = nn.Parameter(torch.randn(VOCAB, VOCAB) * 0.5)
        self.lm_weight = 0.4
        self.max_len = 6

    def forward(self, img: torch.Tensor):
        logp = self.encoder(img)
        lm = F.log_softmax(self.bigram, dim=-1)
        prev_char = torch.zeros((), dtype=torch.long)
        prev_sym = torch.zeros((), dtype=torch.long)
        tokens = []
        score = torch.zeros(())
        for t in range(logp.shape[0]):
            s = logp[t] + self.lm_weight * lm[prev_char]
            s = torch.cat([logp[t, :1], s[1:]])  # no LM bonus on blank
            sym = torch.argmax(s)
            repeated = sym == prev_sym
            prev_sym = sym
            if sym == 0 or repeated:
                continue
            if sym == 1:
                break
            score = score + s[sym]
            tokens.append(sym)
            prev_char = sym
            if len(tokens) >= self.max_len:
                break
        if len(tokens) == 0:
            return torch.zeros(0, dtype=torch.long), score
        return torch.stack(tokens), score / len(tokens)


def model():
    torch.manual_seed(3)
    return GreedyLMDecoder().eval()


def _img(seed, W, scale=1.0, shift=0.0):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(1, 1, 16, W, generator=g) * scale + shift


def example_inputs():
    return (_img(0, 24),)


def dynamic_shapes():
    return ({3: torch.export.Dim("W", min=2, max=128)},)


def verify_inputs():
    return [(_img(1, 2),), (_img(2, 40),), (_img(3, 96),), (_img(4, 6, 0.2, -1.0),), (_img(5, 16, 2.0, 0.5),), (_img(7, 30, 0.5, 1.0),)]
