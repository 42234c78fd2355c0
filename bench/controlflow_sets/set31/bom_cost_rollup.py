"""Manufacturing ERP: bill-of-materials cost roll-up.

Every part's standard cost is its own purchase/labour cost plus the cost of
its components times their quantities, plus a learned assembly-overhead rate.
Parts are costed level by level from the leaves up (Kahn-style topological
order).  A circular reference in the BOM stops the roll-up and flags the parts
caught in the cycle.  Large BOMs multiply in row chunks.
"""
import torch
import torch.nn as nn


def component_cost(bom, cost, chunk_rows):
    """bom @ cost, in row chunks for big BOMs."""
    if bom.shape[0] <= chunk_rows:
        return bom @ cost
    parts = []
    for start in range(0, bom.shape[0], chunk_rows):
        parts.append(bom[start:start + chunk_rows] @ cost)
    return torch.cat(parts)


class BomCostRollup(nn.Module):
    def __init__(self, chunk_rows=32):
        super().__init__()
        self.chunk_rows = chunk_rows
        self.overhead = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, bom, unit_cost):
        # bom: [N, N], bom[i, j] = quantity of part j in one unit of part i
        # unit_cost: [N] own purchase or labour cost of each part
        n = bom.shape[0]
        uses = bom > 0
        n_components = uses.float().sum(1)
        rate = 0.08 * torch.sigmoid(
            self.overhead(torch.stack([n_components / 10.0, torch.log1p(unit_cost)], dim=-1))).squeeze(-1)

        done = torch.zeros(n, dtype=torch.bool)
        cost = unit_cost.clone()
        level = torch.zeros(n)
        depth = 0
        while not done.all():
            waiting = (uses & ~done[None, :]).any(dim=1)
            ready = ~done & ~waiting
            if not ready.any():
                # circular reference (data-entry error): flag the parts stuck in it
                return cost, level, (~done).float()
            rolled = (unit_cost + component_cost(bom, cost, self.chunk_rows)) * (1.0 + rate)
            cost = torch.where(ready, rolled, cost)
            level = torch.where(ready, torch.full_like(level, float(depth)), level)
            done = done | ready
            depth += 1
        return cost, level, torch.zeros(n)


def model():
    torch.manual_seed(71)
    return BomCostRollup().eval()


def _make_bom(n, edges, seed):
    g = torch.Generator().manual_seed(seed)
    bom = torch.zeros(n, n)
    for parent, child, q in edges:
        bom[parent, child] = q
    unit_cost = 0.5 + 20.0 * torch.rand(n, generator=g)
    return bom, unit_cost


def example_inputs():
    # bicycle(0) <- frame(1) + 2 wheels(2); wheel <- rim(3) + 32 spokes(4) + hub(5); frame <- 3 tubes(6)
    return _make_bom(7, [(0, 1, 1.0), (0, 2, 2.0), (2, 3, 1.0), (2, 4, 32.0), (2, 5, 1.0),
                         (1, 6, 3.0)], 0)


def dynamic_shapes():
    parts = torch.export.Dim("parts", min=2, max=256)
    return ({0: parts, 1: parts}, {0: parts})


def verify_inputs():
    return [
        # three BOM levels, small (no chunking)
        example_inputs(),
        # purchased parts only: one pass
        _make_bom(3, [], 1),
        # 40-part chain (deep BOM) with chunked products (2 chunks)
        _make_bom(40, [(i, i + 1, 1.0 + 0.1 * (i % 3)) for i in range(39)], 2),
        # 70 parts, wide two-level BOM (3 chunks)
        _make_bom(70, [(0, j, 2.0) for j in range(1, 35)] + [(j, j + 34, 1.5) for j in range(1, 36)], 3),
        # circular reference 1 -> 2 -> 3 -> 1: roll-up stops after costing the leaves
        _make_bom(5, [(0, 1, 1.0), (1, 2, 2.0), (2, 3, 1.0), (3, 1, 1.0), (2, 4, 4.0)], 4),
    ]
