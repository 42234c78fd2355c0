"""Source-code / essay plagiarism check with Greedy String Tiling (the algorithm behind
JPlag-style detectors): token pairs match when their embeddings are near-identical,
each round finds the maximal-length unmarked common substrings (at least min_match
tokens), marks them as tiles, and repeats until no long enough match is left. Coverage
and tile statistics go through a small calibration network to give a similarity score.

Kind X. Constructs: 1 (if on tensor match / marked flags, comparisons of match lengths),
2 (early return without tiles; best/round lists reset in one branch), 3 (and / or / not on
tensor predicates in the while and in the skip tests), 4 (while extending a match on a
tensor condition), 5 (nested for over the two dynamic document lengths, Python lists of
tensors -> stack), 6 (continue on marked / non-matching positions and occluded tiles,
break when a round finds nothing), 7 (match-extension helper and scoring helper).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB = 200


class GreedyStringTiling(nn.Module):
    def __init__(self, dim=64, min_match=3, max_rounds=8, sim_threshold=0.9):
        super().__init__()
        self.min_match = min_match
        self.max_rounds = max_rounds
        self.sim_threshold = sim_threshold
        self.emb = nn.Embedding(VOCAB, dim)
        self.calib = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))

    def extend(self, match, i, j, marked_a, marked_b):
        la, lb = match.shape
        k = 0
        while i + k < la and j + k < lb and match[i + k, j + k] and not (marked_a[i + k] or marked_b[j + k]):
            k += 1
        return k

    def similarity(self, marked_a, marked_b, tiles):
        lengths = tiles[:, 2].float()
        feats = torch.stack([marked_a.float().mean(), marked_b.float().mean(),
                             lengths.shape[0] / 10.0 + 0.0 * lengths.sum(),
                             lengths.max() / marked_a.shape[0]])
        return torch.sigmoid(self.calib(feats)[0] + 4.0 * (feats[0] + feats[1] - 0.5))

    def forward(self, doc_a, doc_b):
        # doc_a: (La,), doc_b: (Lb,) int64 token ids (e.g. normalised source-code tokens)
        ea = F.normalize(self.emb(doc_a), dim=1)
        eb = F.normalize(self.emb(doc_b), dim=1)
        match = (ea @ eb.T) > self.sim_threshold
        la, lb = match.shape
        marked_a = torch.zeros(la, dtype=torch.bool)
        marked_b = torch.zeros(lb, dtype=torch.bool)
        tiles = []
        for _ in range(self.max_rounds):
            best = 0
            found = []
            for i in range(la):
                if marked_a[i]:
                    continue
                for j in range(lb):
                    if marked_b[j] or not match[i, j]:
                        continue
                    k = self.extend(match, i, j, marked_a, marked_b)
                    if k < self.min_match:
                        continue
                    if k > best:
                        best, found = k, [(i, j, k)]
                    elif k == best:
                        found.append((i, j, k))
            if not found:
                break
            for i, j, k in found:
                if marked_a[i:i + k].any() or marked_b[j:j + k].any():
                    continue                        # occluded by a tile placed this round
                marked_a[i:i + k] = True
                marked_b[j:j + k] = True
                tiles.append(torch.tensor([i, j, k]))
        if len(tiles) == 0:
            return torch.zeros(1, 3, dtype=torch.long), torch.zeros(())
        tiles = torch.stack(tiles)
        return tiles, self.similarity(marked_a, marked_b, tiles)


def model():
    torch.manual_seed(3920)
    return GreedyStringTiling().eval()


def _make_pair(seed, la, lb, copies=(), repeat=None):
    """copies: (start_a, start_b, length) spans of doc_a copied into doc_b."""
    g = torch.Generator().manual_seed(seed)
    a = torch.randint(0, VOCAB, (la,), generator=g)
    b = torch.randint(0, VOCAB, (lb,), generator=g)
    for sa, sb, n in copies:
        b[sb:sb + n] = a[sa:sa + n]
    return a, b


def example_inputs():
    # essay pair with two copied passages (6 and 4 tokens) in a different order
    return _make_pair(1, 20, 18, copies=((2, 10, 6), (12, 1, 4)))


def dynamic_shapes():
    return ({0: torch.export.Dim("len_a", min=4, max=64)}, {0: torch.export.Dim("len_b", min=4, max=64)})


def verify_inputs():
    ex = example_inputs()   # the example: path described in example_inputs()
    # unrelated documents: only chance single-token matches -> no tile, early return
    unrelated = _make_pair(2, 12, 10)
    # a copied passage of exactly min_match tokens plus one of 2 (too short, skipped)
    short = _make_pair(3, 10, 9, copies=((0, 5, 3), (6, 1, 2)))
    # the same 4-token phrase copied twice into b: two equal-length matches in one round,
    # the second one is occluded (a has only one copy), then a later round finds nothing
    (a, b) = _make_pair(4, 14, 16, copies=((3, 0, 4), (3, 9, 4)))
    twice = (a, b)
    # near-verbatim copy of a 24-token function with one token changed: two tiles in two
    # rounds (long one first); minimum-length b of 4 in another pair
    (a, b) = _make_pair(5, 24, 24, copies=((0, 0, 24),))
    b[10] = (b[10] + 1) % VOCAB
    edited = (a, b)
    tiny = _make_pair(6, 6, 4, copies=((1, 0, 4),))
    return [ex, unrelated, short, twice, edited, tiny]
