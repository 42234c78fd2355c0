"""Rhyme-scheme labelling for a poem (AABB, ABAB, ...).

Each line's final syllables are given as phonetic features; a projection maps them to a
rhyme embedding.  Lines are labelled in order: a line takes the label of the first earlier
line it rhymes with (cosine similarity above a threshold), otherwise it opens a new rhyme
group.  Also returns the fraction of lines that rhyme with an earlier one.
"""
import torch
import torch.nn.functional as F
from torch import nn


class RhymeSchemeLabeler(nn.Module):
    def __init__(self, feats=12, dim=16, threshold=0.8):
        super().__init__()
        self.proj = nn.Linear(feats, dim, bias=False)
        self.threshold = threshold

    def forward(self, endings):
        # endings: [L, feats]
        e = F.normalize(self.proj(endings), dim=-1)
        labels = []
        groups = 0
        matched = 0
        for i in range(endings.shape[0]):
            label = groups
            for j in range(i):
                sim = (e[i] * e[j]).sum()
                if sim > self.threshold:
                    label = labels[j]
                    break
            if label == groups:
                groups += 1
            else:
                matched += 1
            labels.append(label)
        return torch.tensor(labels), torch.tensor(matched / endings.shape[0])


def model():
    torch.manual_seed(0)
    return RhymeSchemeLabeler().eval()


def _make(scheme, seed):
    g = torch.Generator().manual_seed(seed)
    protos = {}
    rows = []
    for ch in scheme:
        if ch not in protos:
            protos[ch] = torch.randn(12, generator=g)
        rows.append(protos[ch] + 0.1 * torch.randn(12, generator=g))
    return (torch.stack(rows),)


def example_inputs():
    return _make("ABAB", 0)


def dynamic_shapes():
    return ({0: torch.export.Dim("lines", min=2, max=32)},)


def verify_inputs():
    return [
        _make("AA", 1),
        _make("AABBCC", 2),
        _make("ABCD", 3),
        _make("ABABCDCDEFEFGG", 5),  # Shakespearean sonnet
        example_inputs(),
    ]
