"""Lexicon-style sentiment scorer with negation scope handling.

Token ids: 0 = padding, 1 = '.', 2 = ',', 3 = 'not', 4 = 'never',
5 = 'very', everything else is a content word with a learned polarity.
Negation flips the polarity of the following words until the next
punctuation mark; 'very' amplifies the next word; reading stops at padding.
Per-token emphasis weights (e.g. from capitalization) scale each word.
"""
import torch
import torch.nn as nn

PAD, PERIOD, COMMA, NOT, NEVER, VERY = 0, 1, 2, 3, 4, 5


class NegationScopeSentiment(nn.Module):
    def __init__(self, vocab=100, dim=12, max_tokens=64):
        super().__init__()
        self.max_tokens = max_tokens
        self.emb = nn.Embedding(vocab, dim)
        self.polarity = nn.Linear(dim, 1)

    def forward(self, ids, emphasis):
        # ids: [L] int64, emphasis: [L] float
        if ids.shape[0] > self.max_tokens:
            ids = ids[: self.max_tokens]
            emphasis = emphasis[: self.max_tokens]
        n = ids.shape[0]
        word_pol = torch.tanh(self.polarity(self.emb(ids)).squeeze(-1)) * emphasis
        total = torch.zeros(())
        negated = torch.zeros((), dtype=torch.int64)
        negate = False
        i = 0
        while i < n and ids[i] != PAD:
            tok = ids[i]
            if tok == NOT or tok == NEVER:
                negate = True
                i += 1
                continue
            if tok == PERIOD or tok == COMMA:
                negate = False  # punctuation ends the scope
                i += 1
                continue
            p = word_pol[i]
            if tok == VERY and i + 1 < n:
                p = 1.5 * word_pol[i + 1]
                i += 1
            if negate:
                negated = negated + 1
            total = total + (-p if negate else p)
            i += 1
        return torch.tanh(total), negated


def model():
    torch.manual_seed(0)
    return NegationScopeSentiment().eval()


def _text(ids, seed):
    g = torch.Generator().manual_seed(seed)
    ids = torch.tensor(ids, dtype=torch.int64)
    emphasis = 0.8 + 0.4 * torch.rand(ids.shape[0], generator=g)
    return ids, emphasis


def example_inputs():
    return _text([10, 11, 3, 12, 1, 13, 0, 0], 0)


def dynamic_shapes():
    L = torch.export.Dim("tokens", min=2, max=256)
    return ({0: L}, {0: L})


def verify_inputs():
    long_review = ([20, 21, 5, 22, 2, 3, 23, 24, 1] * 9)[:80]
    return [
        _text([30, 3, 5, 31, 32, 2, 33, 1, 4, 34, 0, 0, 0], 1),  # negation, 'very', padding
        _text([0, 40, 41], 2),                                   # padding first: nothing read
        _text(long_review, 3),                                   # long review, truncated
        _text([50, 51, 52, 5], 4),                               # trailing 'very' with no next word
        _text([60, 0], 5),                                       # one word, then padding
    ]
