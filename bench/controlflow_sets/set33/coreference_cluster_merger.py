"""Greedy mention-ranking coreference resolution (inference side).

mentions: [M, D] contextual mention embeddings in document order (M dynamic),
positions: [M] token offset of each mention (same M).
Each mention scores every earlier mention within a distance window with a
pairwise scorer module; it links to its best antecedent when the score clears a
threshold, otherwise it starts a new entity.  Entities are kept as Python lists
of mention indices.
Returns (entity embeddings [E, D], entity id per mention [M]).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


class PairScorer(nn.Module):
    def __init__(self, dim, max_distance):
        super().__init__()
        self.max_distance = max_distance
        self.proj = nn.Linear(dim, dim, bias=False)
        self.dist_weight = nn.Parameter(torch.tensor(0.002))

    def forward(self, anaphor, antecedent, distance):
        if distance > self.max_distance:
            return torch.tensor(-1e4)  # too far back to be a plausible antecedent
        sim = F.cosine_similarity(self.proj(anaphor), self.proj(antecedent), dim=0)
        return sim - self.dist_weight.abs() * distance


class CorefResolver(nn.Module):
    def __init__(self, dim=16, threshold=0.75, max_distance=200.0, window=8):
        super().__init__()
        self.threshold = threshold
        self.window = window
        self.scorer = PairScorer(dim, max_distance)
        self.merge = nn.Linear(dim, dim)

    def forward(self, mentions, positions):
        entities = []   # list of lists of mention indices
        entity_of = []  # entity index of each mention so far
        for i in range(mentions.shape[0]):
            best_score, best_j = None, -1
            for j in range(max(0, i - self.window), i):
                s = self.scorer(mentions[i], mentions[j], positions[i] - positions[j])
                if best_score is None or s > best_score:
                    best_score, best_j = s, j
            if best_score is not None and best_score > self.threshold:
                e = entity_of[best_j]
                entities[e].append(i)
            else:
                e = len(entities)
                entities.append([i])
            entity_of.append(e)

        reps = []
        for members in entities:
            pooled = mentions[members].mean(0)
            if len(members) > 1:
                pooled = pooled + torch.tanh(self.merge(pooled))  # refine multi-mention entities
            reps.append(pooled)
        return torch.stack(reps), torch.tensor(entity_of)


def model():
    torch.manual_seed(37)
    return CorefResolver().eval()


def _document(entity_seq, seed, gap=6.0, dim=16, noise=0.05):
    """entity_seq: entity label of every mention in order; mentions of one entity are near-duplicates."""
    g = torch.Generator().manual_seed(seed)
    protos = {}
    embs, pos = [], []
    p = 0.0
    for label in entity_seq:
        if label not in protos:
            protos[label] = torch.randn(dim, generator=g)
        embs.append(protos[label] + noise * torch.randn(dim, generator=g))
        p += gap * (0.5 + torch.rand((), generator=g).item())
        pos.append(p)
    return torch.stack(embs), torch.tensor(pos)


def example_inputs():
    return _document([0, 1, 0, 2, 1, 0, 3, 2], 1)


def dynamic_shapes():
    m = Dim("mentions", min=2, max=256)
    return ({0: m}, {0: m})


def verify_inputs():
    return [
        example_inputs(),                           # interleaved entities: links and new entities, merge refinement
        _document([0, 1, 2, 3, 4], 2),              # all distinct: every mention starts its own entity
        _document([0, 0], 3, gap=400.0),            # same entity but > max distance apart: scorer rejects
        _document([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0], 4),  # antecedent 10 mentions back is outside the window
    ]
