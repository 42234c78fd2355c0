"""Genealogy app: name the relationship between two people in a family tree.

The pedigree is a parent table (father, mother; -1 when unknown) plus birth years. After
a sanity check (every parent at least 12 years older than the child), breadth-first
searches walk up the generations from both people (as vector frontiers over the parent
adjacency matrix) up to a search depth. The nearest common ancestor gives the relationship:
direct line, siblings, aunt/uncle-niece/nephew, or n-th cousins k times removed, plus the
approximate coefficient of relationship.

Kind: X.  Constructs: 1, 2, 3, 4, 7, 9.
"""
import torch
import torch.nn as nn
from torch.export import Dim

INVALID, UNRELATED, SELF, DIRECT, SIBLINGS, AUNT_UNCLE, COUSINS = -1, 0, 1, 2, 3, 4, 5
FAR = 1_000_000


def generation_distances(parent_adj, person, max_gen):
    n = parent_adj.shape[0]
    dist = torch.full((n,), FAR, dtype=torch.long)
    dist[person] = 0
    frontier = (torch.arange(n) == person).float()
    g = 0
    while frontier.sum() > 0 and g < max_gen:
        g += 1
        frontier = ((frontier @ parent_adj) > 0).float()
        newly = (frontier > 0) & (dist == FAR)
        dist = torch.where(newly, torch.full_like(dist, g), dist)
    return dist


def classify(ga, gb):
    """ga, gb: generations from each person up to the nearest common ancestor."""
    if ga == 0 or gb == 0:
        return DIRECT, torch.tensor(0), (ga - gb).abs()
    if ga == 1 and gb == 1:
        return SIBLINGS, torch.tensor(0), torch.tensor(0)
    lo = torch.minimum(ga, gb)
    hi = torch.maximum(ga, gb)
    if lo == 1:
        return AUNT_UNCLE, torch.tensor(0), hi - 1
    return COUSINS, lo - 1, hi - lo


class KinshipResolver(nn.Module):
    def __init__(self, max_gen=6, min_parent_age=12):
        super().__init__()
        self.max_gen = max_gen
        self.min_parent_age = min_parent_age

    def answer(self, code, degree, removed, r):
        return torch.stack([torch.tensor(code), degree, removed]), r

    def forward(self, parents, birth_year, pair):
        # parents: (N, 2) indices of father / mother or -1, birth_year: (N,), pair: (2,) people
        n = parents.shape[0]
        adj = torch.zeros(n, n)
        people = torch.arange(n)
        for k in range(2):
            p = parents[:, k]
            known = p >= 0
            adj[people[known], p[known]] = 1.0
        age_gap = birth_year[:, None] - birth_year[None, :]
        if ((adj > 0) & (age_gap < self.min_parent_age)).any():
            return self.answer(INVALID, torch.tensor(0), torch.tensor(0), torch.zeros(()))
        a, b = pair[0], pair[1]
        if a == b:
            return self.answer(SELF, torch.tensor(0), torch.tensor(0), torch.ones(()))
        da = generation_distances(adj, a, self.max_gen)
        db = generation_distances(adj, b, self.max_gen)
        common = (da < FAR) & (db < FAR)
        if not common.any():
            return self.answer(UNRELATED, torch.tensor(0), torch.tensor(0), torch.zeros(()))
        total = torch.where(common, da + db, torch.full_like(da, FAR))
        best = total.min()
        ga = torch.where(common & (total == best), da, torch.full_like(da, FAR)).min()
        gb = best - ga
        r = torch.where(common, 0.5 ** total.clamp(max=60).float(), torch.zeros(n)).sum()
        code, degree, removed = classify(ga, gb)
        return self.answer(code, degree, removed, r)


def model():
    torch.manual_seed(19)
    return KinshipResolver().eval()


# index: (father, mother, birth year)
_FAMILY = [
    (-1, -1, 1930),   # 0 grandfather
    (-1, -1, 1932),   # 1 grandmother
    (0, 1, 1955),     # 2 child A
    (0, 1, 1958),     # 3 child B
    (-1, -1, 1954),   # 4 A's spouse
    (2, 4, 1980),     # 5 A's child C
    (3, 7, 1984),     # 6 B's child D
    (-1, -1, 1957),   # 7 B's spouse
    (5, 9, 2008),     # 8 C's child E
    (-1, -1, 1981),   # 9 C's spouse
    (-1, -1, 1990),   # 10 unrelated in-law
    (0, 12, 1962),    # 11 A's half-sibling
    (-1, -1, 1940),   # 12 grandfather's second wife
]


def _tree(rows, a, b):
    parents = torch.tensor([[r[0], r[1]] for r in rows])
    birth = torch.tensor([r[2] for r in rows])
    return parents, birth, torch.tensor([a, b])


def example_inputs():
    return _tree(_FAMILY, 5, 6)


def dynamic_shapes():
    n = Dim("people", min=2, max=256)
    return ({0: n}, {0: n}, None)


def verify_inputs():
    bad = list(_FAMILY)
    bad[6] = (3, 7, 1950)                      # D "born" before father B
    chain = [(-1, -1, 1700)] + [(k, -1, 1700 + 25 * (k + 1)) for k in range(9)]
    return [
        # first cousins (2, 2): cousin branch
        example_inputs(),
        # first cousin once removed (3, 2)
        _tree(_FAMILY, 8, 6),
        # siblings (1, 1)
        _tree(_FAMILY, 2, 3),
        # half-siblings share only the father (1, 1) via one common ancestor
        _tree(_FAMILY, 11, 3),
        # uncle and nephew (1, 2)
        _tree(_FAMILY, 3, 5),
        # grandfather and great-grandchild: direct line (0, 3)
        _tree(_FAMILY, 0, 8),
        # in-law with no common ancestor: unrelated
        _tree(_FAMILY, 5, 10),
        # same person
        _tree(_FAMILY, 4, 4),
        # inconsistent birth years: invalid pedigree (early return)
        _tree(bad, 5, 6),
        # ten-generation line: search from the descendant stops at max_gen (ancestor not found),
        # search from the ancestor stops when the frontier empties
        _tree(chain, 0, 9),
    ]
