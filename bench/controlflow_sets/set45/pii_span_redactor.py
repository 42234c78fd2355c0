"""PII redaction before logging chat transcripts: a hybrid lexical + learned
token scorer, span extraction, greedy span growing over weaker neighbours,
merging of nearby spans and replacement of redacted token embeddings.

Kind X. Constructs: 1, 2, 3, 4, 5, 6, 7.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class TokenScorer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(dim, 16), nn.GELU(), nn.Linear(16, 1))

    def forward(self, emb, lex):
        # lex: [L, 3] digit ratio, capitalised, contains '@'
        rule = 3.0 * lex[:, 0] + 3.0 * lex[:, 1] + 4.0 * lex[:, 2] - 2.0
        return torch.sigmoid(rule + 0.3 * torch.tanh(self.mlp(emb).squeeze(-1)))


def extract_spans(is_pii):
    spans = []
    start = None
    for i in range(is_pii.shape[0]):
        if is_pii[i]:
            if start is None:
                start = i
        elif start is not None:
            spans.append((start, i))
            start = None
    if start is not None:
        spans.append((start, is_pii.shape[0]))
    return spans


def merge_close(spans, max_gap):
    merged = []
    for s, e in spans:
        if merged and s - merged[-1][1] <= max_gap:
            merged[-1] = (merged[-1][0], e)  # "John <and> Smith" -> one span
        else:
            merged.append((s, e))
    return merged


class PIIRedactor(nn.Module):
    def __init__(self, dim=32, threshold=0.5, grow_threshold=0.3, max_gap=1):
        super().__init__()
        self.scorer = TokenScorer(dim)
        self.threshold = threshold
        self.grow_threshold = grow_threshold
        self.max_gap = max_gap
        self.mask_emb = nn.Parameter(0.02 * torch.randn(dim))

    def forward(self, emb, lex):
        # emb: [L, D] token embeddings, lex: [L, 3] lexical features
        L = emb.shape[0]
        scores = self.scorer(emb, lex)
        spans = extract_spans(scores > self.threshold)
        grown = []
        for s, e in spans:
            # pull in weaker neighbours on the right ("Street", "Apt")
            while e < L and scores[e] > self.grow_threshold:
                e += 1
            if e - s == 1 and scores[s] < 0.7:
                continue  # lone, unsure token: leave it
            grown.append((s, e))
        spans = merge_close(grown, self.max_gap)

        redacted = emb.clone()
        mask = torch.zeros(L)
        for s, e in spans:
            redacted[s:e] = self.mask_emb
            mask[s:e] = 1.0
        return redacted, mask


def model():
    torch.manual_seed(13)
    return PIIRedactor().eval()


# lexical presets: plain word, capitalised name, phone/number, e-mail, weak (street-like), unsure
LEX = {
    "w": [0.0, 0.0, 0.0],
    "N": [0.0, 1.0, 0.0],
    "9": [1.0, 0.0, 0.0],
    "@": [0.0, 0.0, 1.0],
    "s": [0.0, 0.5, 0.0],
    "u": [0.3, 0.5, 0.0],
}


def _utt(pattern, seed):
    g = torch.Generator().manual_seed(seed)
    emb = 0.5 * torch.randn(len(pattern), 32, generator=g)
    lex = torch.tensor([LEX[c] for c in pattern])
    return emb, lex


def example_inputs():
    # "call 555 0199 or mail x@y , I live at Baker Street 7"
    return _utt("w99w@wwwwNs9", 0)


def dynamic_shapes():
    n = Dim("tokens", min=2, max=256)
    return ({0: n}, {0: n})


def verify_inputs():
    return [
        example_inputs(),  # number and e-mail 1 apart merged; name grows over 'Street' to the end (e == L), overlapping span merged
        _utt("ww", 1),  # min length, no PII: no spans, loops over spans run 0 times
        _utt("wwuww", 2),  # lone unsure token (score < 0.7) -> continue, nothing redacted
        _utt("w9s" + "w" * 10 + "9ssw", 3),  # growth while runs once, then twice
        _utt("wNwNww9w9", 4),  # names 1 token apart merged; digits 1 apart merged
        _utt("N" + "w" * 253 + "@9", 5),  # max length: span at start and span ending at L (no growth, e == L)
        _utt("9ww9", 6),  # gap of 2 > max_gap: not merged
        _utt("@sssssss", 7),  # e-mail followed by weak tokens: growth runs until L
    ]
