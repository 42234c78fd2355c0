"""Data-dependent dispatch: a ModuleList indexed by a tensor value or a loop counter, an unbacked
`.item()` count read inside a converted branch, and the first matching rule of a ModuleList per row
(a loop `else` giving the default), and the code of the kernel an if/elif picks returned beside its
result (`kind = 1` / `kind = 2`, one branch a padded per-row loop)."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded


class ArgmaxExpert(nn.Module):
    """Route the batch to the expert the gate scores highest (`self.experts[idx]`, idx from .item())."""

    def __init__(self):
        super().__init__()
        self.gate = nn.Linear(6, 3)
        self.temperature = nn.ParameterList([nn.Parameter(torch.tensor(t)) for t in (1.0, 2.0, 0.5)])
        self.experts = nn.ModuleList(
            [nn.Linear(6, 6), nn.Sequential(nn.Linear(6, 6), nn.Tanh()), nn.Identity()]
        )

    def forward(self, x):
        idx = int(torch.argmax(self.gate(x).mean(0)).item())
        return self.experts[idx](x) * self.temperature[idx]


class DepthByItem(nn.Module):
    """`for i in range(len(self.layers))` with a `break` on a tensor: the counter indexes the list."""

    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(5, 5) for _ in range(4)])

    def forward(self, x, depth):
        for i in range(len(self.layers)):
            if i >= depth.item():
                break
            x = torch.tanh(self.layers[i](x))
        return x


class PositiveCount(nn.Module):
    """An integer `.item()` (unbacked while exporting) read inside the converted branch."""

    def forward(self, x):
        n = (x > 0).sum().item()
        if n == 0:
            return torch.zeros_like(x)
        return torch.relu(x) * (x.numel() / n)


class TreeWalk(nn.Module):
    """Decision-tree inference: buffers indexed by the current node (a 0-d tensor) in a tensor while."""

    def __init__(self):
        super().__init__()
        self.register_buffer("feature", torch.tensor([0, 1, 2, 0, 0, 0, 0]))
        self.register_buffer("threshold", torch.tensor([0.0, 0.5, -0.5, 0.0, 0.0, 0.0, 0.0]))
        self.register_buffer("left", torch.tensor([1, 3, 5, -1, -1, -1, -1]))
        self.register_buffer("right", torch.tensor([2, 4, 6, -1, -1, -1, -1]))
        self.register_buffer("leaf", torch.tensor([0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 4.0]))

    def forward(self, x):
        node = torch.zeros((), dtype=torch.int64)
        while self.left[node] >= 0:
            go_left = x[0, self.feature[node]] <= self.threshold[node]
            node = torch.where(go_left, self.left[node], self.right[node])
        return self.leaf[node] * torch.ones(1)


def _gate_inputs():
    gen = torch.Generator().manual_seed(3)
    return [(torch.randn(4, 6, generator=gen) * s,) for s in (-1.0, 3.0, -3.0, 0.5, 8.0)]


class Band(nn.Module):
    def __init__(self, lo, hi, action):
        super().__init__()
        self.register_buffer("lo", torch.tensor(lo))
        self.register_buffer("hi", torch.tensor(hi))
        self.action = action

    def forward(self, row):
        return bool(((row >= self.lo) & (row <= self.hi)).all())


class FirstMatchingRule(nn.Module):
    """Per row, the first rule that matches gives the action (a Python float of the rule), the loop's
    `else` the default; rows and rule hits over a dynamic row count."""

    def __init__(self):
        super().__init__()
        self.rules = nn.ModuleList([Band([0.0, 0.0], [1.0, 1.0], 1.0), Band([-1.0, 0.5], [0.0, 2.0], 0.0)])
        self.default = 2.0

    def forward(self, rows):
        actions = []
        hits = torch.zeros(len(self.rules) + 1)
        for i in range(rows.shape[0]):
            for r, rule in enumerate(self.rules):
                if rule(rows[i]):
                    action = rule.action
                    hits[r] += 1
                    break
            else:
                action = self.default
                hits[-1] += 1
            actions.append(torch.tensor(action) * rows[i].sum())
        return torch.stack(actions), hits


class KernelPick(nn.Module):
    """A sparse matrix-vector product by the kernel its fill suggests: dense, rows padded to the
    longest (a loop over rows of nonzeros), or elementwise; the kernel's code is returned too."""

    def padded(self, a, x, width):
        slots, weights = [], []
        for i in range(a.shape[0]):
            idx = a[i].nonzero().flatten()
            missing = width - idx.shape[0]
            weights.append(torch.cat([a[i, idx], torch.zeros(missing)]))
            slots.append(torch.cat([idx, idx.new_zeros(missing)]))
        gathered = x[torch.stack(slots)]  # the padding reads x[0], weighted by 0
        return (gathered * torch.stack(weights)).sum(1)

    def forward(self, a, x):
        m, n = a.shape
        per_row = (a != 0).sum(1)
        if m < 4 or per_row.sum() > 0.5 * m * n:
            kind = 0
            y = a @ x
        elif per_row.max() <= 2 * per_row.float().mean():
            kind = 1
            y = self.padded(a, x, int(per_row.max()))
        else:
            kind = 2
            y = (a * x).sum(1)
        return y, torch.tensor(kind)


def _sparse(m: int, n: int, keep: float, seed: int, full_rows: int = 0) -> tuple:
    g = torch.Generator().manual_seed(seed)
    a = torch.randn(m, n, generator=g) * (torch.rand(m, n, generator=g) < keep)
    a[:full_rows] = 1.0
    return a, torch.randn(n, generator=g)


_MATRIX = ({0: torch.export.Dim("rows", min=2, max=32), 1: torch.export.Dim("cols", min=2, max=32)},)


CASES = [
    Case(
        "modulelist_indexed_by_item",
        seeded(ArgmaxExpert),
        (torch.randn(4, 6),),
        _gate_inputs(),
        constructs=("index->cond", "index->select"),
    ),
    Case(
        "modulelist_indexed_by_loop_counter",
        seeded(DepthByItem),
        (torch.randn(2, 5), torch.tensor(2)),
        [
            (torch.randn(2, 5), torch.tensor(0)),
            (torch.randn(2, 5), torch.tensor(4)),
            (torch.randn(2, 5), torch.tensor(1)),
        ],
        constructs=("for->while_loop",),
    ),
    Case(
        "unbacked_item_read_in_branch",
        seeded(PositiveCount),
        (torch.randn(3, 4),),
        [(-torch.rand(3, 4),), (torch.rand(3, 4),)],
        constructs=("if->cond",),
    ),
    Case(
        "buffers_indexed_by_tensor_node",
        seeded(TreeWalk),
        (torch.tensor([[-1.0, 0.0, 0.0]]),),
        [
            (torch.tensor([[-1.0, 1.0, 0.0]]),),
            (torch.tensor([[1.0, 0.0, -1.0]]),),
            (torch.tensor([[1.0, 0.0, 1.0]]),),
        ],
        constructs=("while->while_loop",),
    ),
    Case(
        "first_matching_rule_or_the_loop_else",
        seeded(FirstMatchingRule),
        (torch.tensor([[0.5, 0.5], [-0.5, 1.0], [3.0, 3.0]]),),
        [
            (torch.tensor([[0.2, 0.9], [0.3, 0.1]]),),  # the first rule only
            (torch.tensor([[-0.5, 1.5], [5.0, 5.0], [-0.2, 0.7], [0.1, 0.1]]),),  # each rule, the default
            (torch.tensor([[4.0, 4.0], [-3.0, 1.0]]),),  # the default only
        ],
        ({0: torch.export.Dim("rows", min=2, max=16)},),
        constructs=("for->scan", "if->cond"),
    ),
    Case(
        # probing the padded branch outside the cond fails; its code goes through the cond as a tensor
        "the_code_of_the_kernel_an_elif_picks_beside_a_padded_row_loop",
        seeded(KernelPick),
        _sparse(12, 10, 0.3, 0),  # padded rows
        [
            _sparse(3, 5, 0.3, 1),  # few rows: dense
            _sparse(20, 20, 0.9, 2),  # well filled: dense
            _sparse(16, 9, 0.1, 3, full_rows=2),  # two full rows: elementwise
            _sparse(6, 24, 0.2, 4),
        ],
        _MATRIX + ({0: _MATRIX[0][1]},),
        constructs=("for->scan", "if->cond"),
    ),
]
