"""Greedy transition-based dependency parser (arc-eager system).

Token embeddings come from an upstream encoder.  A stack/buffer configuration is featurised
(top two stack items and the buffer front), an MLP scores the four transitions, illegal ones are
masked, and the best is applied.  If the parser becomes unsure (best transition probability below
a confidence floor) it stops and attaches the rest of the sentence right-branching, as a
production parser would rather than emit garbage.  Finally every dependent gets a label
distribution from its (dependent, head) pair.
"""
import torch
import torch.nn as nn
from torch.export import Dim

SHIFT, LEFT_ARC, RIGHT_ARC, REDUCE = 0, 1, 2, 3


class ArcEagerParser(nn.Module):
    def __init__(self, dim=16, hidden=32, n_labels=6, min_confidence=0.4):
        super().__init__()
        self.root = nn.Parameter(torch.randn(dim))
        self.null = nn.Parameter(torch.zeros(dim))
        self.scorer = nn.Sequential(nn.Linear(3 * dim, hidden), nn.Tanh(), nn.Linear(hidden, 4))
        self.labeler = nn.Linear(2 * dim, n_labels)
        self.min_confidence = min_confidence
        with torch.no_grad():
            self.scorer[2].weight.mul_(6.0)  # a trained scorer is far more peaked than a fresh init

    def _features(self, emb, stack, i, n):
        s0 = emb[stack[-1]]
        s1 = emb[stack[-2]] if len(stack) > 1 else self.null
        b0 = emb[i] if i <= n else self.null
        return torch.cat([s0, s1, b0])

    def _legal(self, stack, heads):
        top = stack[-1]
        return torch.tensor([
            True,                                  # SHIFT (buffer is non-empty inside the loop)
            top != 0 and heads[top] < 0,           # LEFT-ARC: top is not ROOT and has no head yet
            True,                                  # RIGHT-ARC
            heads[top] >= 0,                       # REDUCE: top already has its head
        ])

    def forward(self, tokens):
        n = tokens.shape[0]
        emb = torch.cat([self.root.unsqueeze(0), tokens])   # index 0 = ROOT
        heads = [-1] * (n + 1)
        stack = [0]
        i = 1
        confidences = []
        while i <= n:
            logits = self.scorer(self._features(emb, stack, i, n))
            probs = logits.masked_fill(~self._legal(stack, heads), float("-inf")).softmax(-1)
            best = probs.max()
            if best < self.min_confidence:
                break  # unsure: fall back to right-branching for the rest
            confidences.append(best)
            action = int(probs.argmax())
            if action == SHIFT:
                stack.append(i)
                i += 1
            elif action == LEFT_ARC:
                heads[stack.pop()] = i
            elif action == RIGHT_ARC:
                heads[i] = stack[-1]
                stack.append(i)
                i += 1
            else:
                stack.pop()
        for tok in range(1, n + 1):
            if heads[tok] < 0:
                heads[tok] = tok - 1  # right-branching fallback (token 1 -> ROOT)
        labels = []
        for dep in range(1, n + 1):
            labels.append(self.labeler(torch.cat([emb[dep], emb[heads[dep]]])).softmax(-1))
        conf = torch.stack(confidences) if confidences else torch.ones(1)
        return torch.tensor(heads[1:]), torch.stack(labels), conf


def model():
    torch.manual_seed(6511)
    return ArcEagerParser().eval()


def _sentence(n, seed, scale=1.0):
    g = torch.Generator().manual_seed(seed)
    return scale * torch.randn(n, 16, generator=g)


def example_inputs():
    return (_sentence(8, 0),)


def dynamic_shapes():
    return ({0: Dim("tokens", min=2, max=64)},)


def verify_inputs():
    return [
        example_inputs(),          # 8 tokens: SHIFT / RIGHT-ARC / REDUCE, full parse, 3 stack leftovers -> ROOT fallback
        (_sentence(12, 2),),       # all four transitions (LEFT-ARC 5x), parse completes
        (_sentence(12, 9),),       # SHIFT / LEFT-ARC heavy, no REDUCE
        (_sentence(5, 7, 2.0),),   # short, large-norm embeddings: SHIFT / LEFT / RIGHT
        (_sentence(12, 1),),       # confidence drops below floor after 4 transitions -> break, 10 tokens right-branching
        (_sentence(3, 4),),        # 3 tokens, 3 transitions
        (_sentence(12, 6),),       # all four transitions, REDUCE 4x
    ]
