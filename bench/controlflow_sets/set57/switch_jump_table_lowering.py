"""Lowering of a `switch` statement in a compiler back end.

Case labels are sorted and greedily grouped into clusters that are dense
enough for a jump table; small clusters whose cases go to at most three
blocks become bit tests, everything else falls back to single compares.
The clusters are then dispatched through a binary search tree balanced by
the profile weights, and a small learned cost model turns the shape of the
lowering into an estimated cycle count per dispatch.
"""
import torch
import torch.nn as nn

SINGLE, BIT_TEST, JUMP_TABLE = 0, 1, 2


def case_density(vals, i, j):
    return (j - i + 1) / (vals[j] - vals[i] + 1).float()


def classify_cluster(vals, targets, i, j, min_table_cases, max_bit_range):
    n_cases = j - i + 1
    span = vals[j] - vals[i] + 1
    if n_cases >= min_table_cases:
        return JUMP_TABLE
    if n_cases >= 3 and span <= max_bit_range and torch.unique(targets[i:j + 1]).numel() <= 3:
        return BIT_TEST
    return SINGLE


class SwitchLowering(nn.Module):
    def __init__(self, min_density=0.1, min_table_cases=5, max_bit_range=32):
        super().__init__()
        self.min_density = min_density
        self.min_table_cases = min_table_cases
        self.max_bit_range = max_bit_range
        # features: clusters, jump tables, bit tests, expected compare depth
        self.cost_head = nn.Linear(4, 1)

    def search_tree_depth(self, cw, depth):
        """Profile-weighted compare depth of a weight-balanced search tree over the clusters."""
        if cw.shape[0] == 1:
            return cw[0] * depth
        csum = torch.cumsum(cw, dim=0)
        split = int((csum < 0.5 * csum[-1]).sum())
        split = min(max(split, 1), cw.shape[0] - 1)
        return self.search_tree_depth(cw[:split], depth + 1) + self.search_tree_depth(cw[split:], depth + 1)

    def estimate_cycles(self, clusters, expected_depth):
        n_tables = sum(1 for c in clusters if c[2] == JUMP_TABLE)
        n_bits = sum(1 for c in clusters if c[2] == BIT_TEST)
        feats = torch.tensor([len(clusters), n_tables, n_bits], dtype=torch.float32)
        feats = torch.cat([feats / 16.0, expected_depth.reshape(1)])
        return 4.0 + torch.nn.functional.softplus(self.cost_head(feats))

    def forward(self, case_values, case_targets, case_weights):
        # case_values: (n_cases,) int64 labels (unique); case_targets: (n_cases,) int64 block ids;
        # case_weights: (n_cases,) profile counts
        vals, order = torch.sort(case_values)
        targets = case_targets[order]
        weights = case_weights[order]
        n = vals.shape[0]
        total = weights.sum()

        if n < self.min_table_cases:
            # too few cases for tables: compare chain, hottest case tested first
            hot_first = torch.sort(weights, descending=True).values
            expected = (hot_first * torch.arange(1, n + 1)).sum() / total
            clusters = [(k, k, SINGLE) for k in range(n)]
        else:
            clusters = []
            i = 0
            while i < n:
                j = i
                while j + 1 < n and case_density(vals, i, j + 1) >= self.min_density:
                    j += 1
                kind = classify_cluster(vals, targets, i, j, self.min_table_cases, self.max_bit_range)
                if kind == SINGLE:
                    for k in range(i, j + 1):
                        clusters.append((k, k, SINGLE))
                else:
                    clusters.append((i, j, kind))
                i = j + 1
            cluster_weights = torch.stack([weights[a:b + 1].sum() for a, b, _ in clusters])
            expected = self.search_tree_depth(cluster_weights, 1) / total

        table = torch.stack([torch.stack([vals[a], vals[b], torch.tensor(kind)]) for a, b, kind in clusters])
        return table, expected.reshape(1), self.estimate_cycles(clusters, expected)


def model():
    torch.manual_seed(5712)
    return SwitchLowering().eval()


N_CASES = torch.export.Dim("n_cases", min=2, max=128)


def _switch(values, targets, seed):
    g = torch.Generator().manual_seed(seed)
    values = torch.tensor(values, dtype=torch.long)
    perm = torch.randperm(values.numel(), generator=g)
    weights = 1.0 + 100.0 * torch.rand(values.numel(), generator=g)
    return values[perm], torch.tensor(targets, dtype=torch.long)[perm], weights


def example_inputs():
    # bytecode dispatch: opcodes 0..11 (jump table), 200/203/210 to two handlers (bit test),
    # 1000/1012/1025/1036 (dense enough to cluster but spanning 37 > 32 bits -> single compares),
    # rare escapes 5000 and 9000
    values = list(range(12)) + [200, 203, 210] + [1000, 1012, 1025, 1036] + [5000, 9000]
    targets = list(range(12)) + [20, 21, 20] + [30, 31, 32, 33] + [40, 41]
    return _switch(values, targets, 1)


def dynamic_shapes():
    return ({0: N_CASES}, {0: N_CASES}, {0: N_CASES})


def verify_inputs():
    big = list(range(50)) + [1000 + 40 * k for k in range(30)] + list(range(5000, 5048))
    return [
        # jump table, bit test, a wide 4-case cluster split into singles (span check fails), sparse
        # singles; search tree over 8 clusters
        example_inputs(),
        # two cases -> compare chain (n < min_table_cases)
        _switch([7, -3], [1, 2], 2),
        # four cases -> compare chain as well
        _switch([10, 12, 14, 16], [1, 2, 3, 4], 3),
        # 128 cases: two jump tables (0..49, 5000..5047) around 30 cases too sparse to cluster
        _switch(big, list(range(128)), 4),
        # 300..303 going to four blocks (not a bit test -> singles), the pair 800/805 (too small ->
        # singles), 2000..2007 jump table
        _switch([300, 301, 302, 303, 800, 805] + list(range(2000, 2008)),
                [1, 2, 3, 4, 5, 6] + list(range(10, 18)), 5),
    ]
