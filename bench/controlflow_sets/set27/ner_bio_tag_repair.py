"""Named-entity tagger with BIO consistency repair.

A small token classifier predicts BIO tags (O, B-PER, I-PER, B-LOC, I-LOC,
B-ORG, I-ORG). Greedy per-token decisions can produce an inside tag that does
not continue an entity; such orphan tags are promoted to a begin tag when the
classifier is confident and dropped to O otherwise. Sentences longer than the
model's context are truncated.
"""
import torch
import torch.nn as nn

TAGS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG"]


class NerBioTagRepair(nn.Module):
    def __init__(self, dim=16, max_len=48, promote_threshold=0.45):
        super().__init__()
        self.max_len = max_len
        self.promote_threshold = promote_threshold
        self.encoder = nn.Sequential(nn.Linear(dim, 32), nn.Tanh())
        self.tagger = nn.Linear(32, len(TAGS))

    def forward(self, tokens):
        # tokens: [L, dim] contextual token embeddings
        if tokens.shape[0] > self.max_len:
            tokens = tokens[: self.max_len]
        logits = self.tagger(self.encoder(tokens)) * 3.0
        probs = torch.softmax(logits, dim=-1)
        tags = logits.argmax(-1)
        fixed = []
        prev = torch.zeros((), dtype=torch.int64)
        n_entities = torch.zeros((), dtype=torch.int64)
        for t in range(tags.shape[0]):
            tag = tags[t]
            if tag == 0:
                fixed.append(tag)
                prev = tag
                continue  # outside any entity
            if tag % 2 == 0 and not (prev == tag or prev == tag - 1):
                if probs[t, tag] > self.promote_threshold:
                    tag = tag - 1
                else:
                    tag = torch.zeros_like(tag)
            if tag % 2 == 1:
                n_entities = n_entities + 1
            fixed.append(tag)
            prev = tag
        confidence = probs.max(-1).values.mean()
        return torch.stack(fixed), n_entities, confidence


def model():
    torch.manual_seed(0)
    return NerBioTagRepair().eval()


def _sentence(n, seed, scale=1.5):
    g = torch.Generator().manual_seed(seed)
    return (scale * torch.randn(n, 16, generator=g),)


def example_inputs():
    return _sentence(12, 0)


def dynamic_shapes():
    L = torch.export.Dim("tokens", min=2, max=128)
    return ({0: L},)


def verify_inputs():
    return [
        _sentence(10, 1),
        _sentence(25, 2),
        _sentence(70, 3),   # longer than the context window
        _sentence(3, 4),
    ]
