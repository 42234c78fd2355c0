"""Databases: greedy join-order planning (C_out cost) over learned-corrected cardinality estimates.

Nested loops over tables with `continue` on already-joined tables and on cross products, a fallback
when only cross products remain, and the chosen order collected in a Python list.
Kind X. Constructs: 1, 2, 3, 5, 6, 9.
"""
import torch
import torch.nn as nn


class CardinalityCorrector(nn.Module):
    """Learned multiplicative correction of optimizer row estimates from per-table statistics."""

    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, rows, stats):
        return rows * torch.exp(0.5 * torch.tanh(self.net(stats)).squeeze(-1))


class GreedyJoinPlanner(nn.Module):
    def __init__(self, avoid_cross_products=True):
        super().__init__()
        self.avoid_cross_products = avoid_cross_products
        self.card = CardinalityCorrector()

    def _join_size(self, cur_rows, rows_j, sel_col, joined):
        # selectivities of every predicate between the joined set and table j
        s = torch.where(joined, sel_col, torch.ones_like(sel_col))
        return cur_rows * rows_j * s.prod()

    def forward(self, rows, sel, stats):
        # rows: estimated rows per table; sel[i, j]: join selectivity (1.0 = no join predicate)
        n = rows.shape[0]
        est = self.card(rows, stats)
        joined = torch.zeros(n, dtype=torch.bool)
        first = est.argmin()
        joined[first] = True
        order = [first]
        cur = est[first]
        total = torch.zeros_like(cur)
        for _ in range(n - 1):
            best, best_cost, best_rows = -1, None, None
            for j in range(n):
                if joined[j]:
                    continue
                has_pred = (joined & (sel[:, j] < 1.0)).any()
                if self.avoid_cross_products and not has_pred:
                    continue
                out_rows = self._join_size(cur, est[j], sel[:, j], joined)
                cost = total + out_rows
                if best_cost is None or cost < best_cost:
                    best, best_cost, best_rows = j, cost, out_rows
            if best < 0:
                # only cross products left: take the smallest remaining table
                remaining = torch.where(joined, torch.full_like(est, float("inf")), est)
                nxt = remaining.argmin()
                best_rows = cur * est[nxt]
                best_cost = total + best_rows
            else:
                nxt = torch.tensor(best)
            joined[nxt] = True
            order.append(nxt)
            cur = best_rows
            total = best_cost
        return torch.stack(order), total.log10(), cur.log10()


def model():
    torch.manual_seed(36020)
    return GreedyJoinPlanner().eval()


def _schema(seed, n, edges):
    g = torch.Generator().manual_seed(seed)
    rows = 10 ** (2.0 + 4.0 * torch.rand(n, generator=g))
    sel = torch.ones(n, n)
    for a, b in edges:
        s = 10 ** (-1.0 - 4.0 * torch.rand((), generator=g))
        sel[a, b] = s
        sel[b, a] = s
    stats = torch.randn(n, 4, generator=g)
    return rows, sel, stats


def example_inputs():
    # star schema: fact table 0 joined to 4 dimensions
    return _schema(1, 5, [(0, 1), (0, 2), (0, 3), (0, 4)])


def dynamic_shapes():
    tables = torch.export.Dim("tables", min=2, max=16)
    return ({0: tables}, {0: tables, 1: tables}, {0: tables})


def verify_inputs():
    return [
        example_inputs(),                                               # star: candidates compared, joined ones skipped
        _schema(2, 6, [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (1, 4)]),  # chain with a shortcut
        _schema(3, 5, [(0, 1), (2, 3)]),                                # two components -> cross-product fallback
        _schema(4, 2, [(0, 1)]),                                        # two tables
    ]
