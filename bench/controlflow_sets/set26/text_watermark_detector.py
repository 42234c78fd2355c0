"""Streaming detector for a green-list watermark in LLM-generated text.

The previous token selects one of several pseudo-random green lists (a fraction gamma
of the vocabulary).  Scanning the text token by token, repeated bigrams are ignored
(so copy-pasted spans cannot inflate the score), green hits are counted and the
one-proportion z-score is updated; the scan stops as soon as the z-score passes the
detection threshold after enough scored tokens.
"""
import math

import torch
import torch.nn as nn

VOCAB = 256
N_KEYS = 16


class WatermarkDetector(nn.Module):
    def __init__(self, gamma=0.25, z_thr=4.0, min_scored=8, min_tokens=6):
        super().__init__()
        g = torch.Generator().manual_seed(12345)
        green = torch.zeros(N_KEYS, VOCAB, dtype=torch.bool)
        for k in range(N_KEYS):
            green[k, torch.randperm(VOCAB, generator=g)[: int(gamma * VOCAB)]] = True
        self.register_buffer("green", green)
        self.gamma = gamma
        self.z_thr = z_thr
        self.min_scored = min_scored
        self.min_tokens = min_tokens

    def forward(self, tokens):
        L = tokens.shape[0]
        if L < self.min_tokens:
            return torch.zeros(()), torch.tensor(-1)
        seen = set()
        hits = 0
        scored = 0
        z = 0.0
        detected_at = -1
        for i in range(1, L):
            prev = int(tokens[i - 1])
            tok = int(tokens[i])
            if (prev, tok) in seen:
                continue
            seen.add((prev, tok))
            scored += 1
            if self.green[prev % N_KEYS, tok]:
                hits += 1
            z = (hits - self.gamma * scored) / math.sqrt(scored * self.gamma * (1.0 - self.gamma))
            if scored >= self.min_scored and z > self.z_thr:
                detected_at = i
                break
        return torch.tensor(z), torch.tensor(detected_at)


def model():
    torch.manual_seed(0)
    return WatermarkDetector().eval()


def _text(g, m, L, green_prob, repeat_span=0):
    """sample L tokens choosing a green token with probability green_prob."""
    toks = [int(torch.randint(0, VOCAB, (1,), generator=g))]
    while len(toks) < L:
        if repeat_span and len(toks) == L // 2:
            toks += toks[-repeat_span:]
            continue
        key = toks[-1] % N_KEYS
        want_green = bool(torch.rand(1, generator=g) < green_prob)
        pool = torch.nonzero(m.green[key] == want_green).squeeze(1)
        toks.append(int(pool[torch.randint(0, pool.shape[0], (1,), generator=g)]))
    return (torch.tensor(toks[:L]),)


def example_inputs():
    g = torch.Generator().manual_seed(1)
    return _text(g, model(), 40, 0.3)


def dynamic_shapes():
    return ({0: torch.export.Dim("tokens", min=2, max=4096)},)


def verify_inputs():
    g = torch.Generator().manual_seed(2)
    m = model()
    return [
        _text(g, m, 4, 0.9),                        # too short to judge
        _text(g, m, 60, 0.25, repeat_span=12),      # human text with a copy-pasted span
        _text(g, m, 80, 0.95),                      # watermarked: detected early
        _text(g, m, 50, 0.5, repeat_span=6),
    ]
