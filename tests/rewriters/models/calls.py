"""Control flow inside helpers, methods and submodule forwards (call-tree conversion), and plain
Python control flow (config flags, self.training, ModuleList loops) that must stay Python."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded


def soft_clip(x, limit: float = 2.0):
    if x.abs().max() > limit:
        return torch.tanh(x / limit) * limit
    return x


class HelperUser(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        return soft_clip(self.fc(x)) + 1


class Expert(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.fc = nn.Linear(width, width)

    def forward(self, x):
        h = self.fc(x)
        if h.mean() < 0:
            h = -h
        return h


class ExpertStack(nn.Module):
    """A ModuleList loop (plain Python) over submodules whose forward branches on tensors."""

    def __init__(self):
        super().__init__()
        self.experts = nn.ModuleList(Expert(6) for _ in range(3))

    def forward(self, x):
        for expert in self.experts:
            x = expert(x) * 0.5
        return x


class MethodGate(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 3)

    def _gate(self, h):
        if h.sum() > 0:
            h = h * torch.sigmoid(h)
        else:
            h = h.abs()
        return h

    def forward(self, x):
        return self._gate(self.fc(x))


class Configurable(nn.Module):
    """Config flags, self.training, static sizes: plain Python; one tensor `if` converts."""

    def __init__(self, residual=True, depth=2):
        super().__init__()
        self.residual = residual
        self.layers = nn.ModuleList(nn.Linear(8, 8) for _ in range(depth))
        self.drop = nn.Dropout(0.5)

    def forward(self, x):
        for layer in self.layers:
            y = torch.relu(layer(x))
            if self.training:
                y = self.drop(y)
            x = x + y if self.residual else y
        if x.shape[-1] == 8:
            x = x * 1.0
        if x.sum() > 0:
            x = x / 2
        return x


class DecoratedForward(nn.Module):
    """A decorated forward and a staticmethod helper, both with tensor branches."""

    @staticmethod
    def _act(v):
        if v.max() > 1:
            return v.relu()
        return v.sigmoid()

    @torch.no_grad()
    def forward(self, x):
        if x.sum() > 0:
            return self._act(x) * 2
        return x - 1


class ImpactWindow(nn.Module):
    """A return guard whose other path cuts a window at a data-dependent index, pads it when short
    and runs a Sequential on it: a probe of that path fails inside a submodule, and the export goes
    on another way (the tracer's stack of open module calls must not keep the failed call)."""

    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv1d(3, 4, 3, padding=1), nn.ReLU(), nn.Conv1d(4, 4, 3, padding=1))
        self.head = nn.Linear(4, 1)

    def forward(self, acc):
        mag = acc.norm(dim=1)
        if mag.max() < 2.0:
            return torch.zeros(1), torch.tensor(-1)
        idx = int(torch.argmax(mag).item())
        post = acc[idx : idx + 8]
        if post.shape[0] < 8:
            post = nn.functional.pad(post, (0, 0, 0, 8 - post.shape[0]))
        prob = torch.sigmoid(self.head(self.enc(post.t().unsqueeze(0)).mean(-1))).view(1)
        prob = prob if post[-4:, 2].abs().mean() < 0.5 else prob * 0.5
        return prob, torch.tensor(idx)


def _impact(n: int, at: int | None) -> torch.Tensor:
    acc = torch.randn(n, 3, generator=torch.Generator().manual_seed(n)) * 0.1
    if at is not None:
        acc[at] = torch.tensor([1.5, 2.0, 3.0])
    return acc


class PeakQuadrants(nn.Module):
    """A helper without control flow reads the peak's row and column with `int(idx.item()) // w`:
    Python's int() would guard on the unbacked value."""

    def locate(self, x):
        idx = x.reshape(-1).argmax()
        return int(idx.item()) // x.shape[1], int(idx.item()) % x.shape[1]

    def forward(self, x):
        r, c = self.locate(x)
        return x[r:].sum(0), x[:, c:].sum(1)


class PairCosts(nn.Module):
    """Greedy pairing: a helper with no control flow of its own reads row ``i`` of its inputs,
    called with the loop's counter (a 0-d tensor in the graph loop)."""

    def detour(self, i, points):
        return (points - points[i]).norm(dim=1) - points[i].norm()

    def forward(self, points):
        taken = torch.zeros(points.shape[0], dtype=torch.bool)
        pairs = []
        for i in range(points.shape[0]):
            if taken[i]:
                continue
            cost = torch.where(taken, torch.full((points.shape[0],), 1e9), self.detour(i, points))
            cost[i] = 1e9
            j = int(cost.argmin())
            taken[i] = True
            taken[j] = True
            pairs.append(torch.stack([points[i].sum(), points[j].sum()]))
        return torch.stack(pairs)


class Denoiser(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        h = self.fc(x)
        while h.abs().amax() > 1.0:
            h = h * 0.5
        return h


class GatedDenoiser(Denoiser):
    """A subclass that runs its parent's forward (zero-argument ``super()``) in one branch only."""

    def forward(self, x):
        if x.mean() > 0:
            return super().forward(x) + 1.0
        return x * 2.0


def prefix_mean(tokens, count):
    n = int(count.item())
    if n > tokens.shape[0]:
        n = tokens.shape[0]
    return tokens[:n].sum(0)


class PackedPrefixes(nn.Module):
    """Each passage's first ``counts[i]`` tokens, summed by a helper that slices by a count read
    with ``.item()`` (a 0-d tensor in the graph loop), for the passages that fit a budget."""

    def forward(self, passages, counts, budget):
        used = torch.zeros((), dtype=torch.int64)
        picked = []
        for i in range(passages.shape[0]):
            if used + counts[i] > budget:
                break
            picked.append(prefix_mean(passages[i], counts[i]))
            used = used + counts[i]
        if len(picked) == 0:
            return passages.mean((0, 1)), used
        return torch.stack(picked).mean(0), used


def _passages(n: int, counts: list[int], budget: int) -> tuple:
    tokens = torch.arange(n * 6 * 3, dtype=torch.float32).reshape(n, 6, 3) / 10.0
    return tokens, torch.tensor(counts), torch.tensor(budget)


def _passage_dims() -> tuple:
    passages = torch.export.Dim("passages", min=2, max=16)
    return ({0: passages}, {0: passages}, None)


def best_of(v):
    idx = torch.argmax(v)
    return idx, v[idx]


class GreedyFill(nn.Module):
    """A helper with no control flow reading `v[torch.argmax(v)]`, called in a while body."""

    def forward(self, caps, amount):
        left = caps.clone()
        need = amount[0].clone()
        while need > 0.5:
            idx, best = best_of(left)
            if best <= 0:
                break  # nothing left anywhere
            take = torch.minimum(best, need)
            left[idx] -= take
            need = need - take
        return left, need


class Walker(nn.Module):
    """A submodule with no forward: its method walks a heap-ordered tree with a `while`."""

    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.randn(8, 4))

    def descend(self, h):
        node = torch.ones((), dtype=torch.long)
        while node < 8:
            s = (self.w[node] * h).sum()
            if s.abs() < 0.2:
                break  # not sure: stay at the coarser node
            node = 2 * node + (s > 0).long()
        return node


class PerRowWalk(nn.Module):
    """`self.tree.descend(x[i])` in a loop body dynamo traces: the method runs converted."""

    def __init__(self):
        super().__init__()
        self.tree = Walker()

    def forward(self, x):
        nodes = []
        for i in range(x.shape[0]):
            nodes.append(self.tree.descend(x[i]))
        return torch.stack(nodes)


CASES = [
    Case(
        "helper_function",
        seeded(HelperUser),
        (torch.randn(2, 4),),
        [(torch.randn(2, 4) * 10,), (torch.randn(2, 4) * 0.01,)],
        constructs=("if->cond",),
    ),
    Case(
        "submodule_forward",
        seeded(ExpertStack),
        (torch.randn(2, 6),),
        [(torch.randn(2, 6) * 3,), (-torch.randn(2, 6) * 3,)],
        constructs=("if->cond",),
    ),
    Case(
        "method_helper",
        seeded(MethodGate),
        (torch.randn(4, 3),),
        [(torch.randn(4, 3) * 5,), (-torch.randn(4, 3) * 5,)],
        constructs=("if->cond",),
    ),
    Case(
        "config_flags_stay_python",
        seeded(Configurable),
        (torch.randn(2, 8),),
        [(torch.full((2, 8), 2.0),), (torch.full((2, 8), -2.0),)],
        constructs=("if->cond",),
    ),
    Case(
        "decorated_forward_staticmethod",
        seeded(DecoratedForward),
        (torch.randn(3),),
        [(torch.ones(3),), (-torch.ones(3),), (torch.tensor([2.0, -0.5, -0.5]),)],
        constructs=("if->cond",),
    ),
    Case(
        "submodule_after_a_failed_probe",
        seeded(ImpactWindow),
        (_impact(32, 10),),
        [(_impact(40, None),), (_impact(20, 17),), (_impact(64, 3),)],
        dynamic_shapes=({0: torch.export.Dim("samples", min=8, max=128)},),
        constructs=("if->cond",),
    ),
    Case(
        "int_of_an_item_in_a_helper_without_control_flow",
        seeded(PeakQuadrants),
        (torch.rand(5, 6),),
        [(torch.rand(3, 4),), (torch.rand(9, 2),)],
        ({0: torch.export.Dim("rows", min=2, max=16), 1: torch.export.Dim("cols", min=2, max=16)},),
    ),
    Case(
        "a_helper_without_control_flow_indexing_by_the_loop_counter",
        PairCosts,
        (torch.tensor([[0.0, 0.0], [5.0, 1.0], [0.5, 0.2], [4.0, 1.5]]),),
        [
            (torch.tensor([[1.0, 0.0], [1.2, 0.1], [-3.0, 2.0], [-2.7, 2.2], [9.0, 9.0], [8.0, 8.5]]),),
            (torch.tensor([[0.0, 1.0], [3.0, 0.0], [0.1, 0.9]]),),
        ],
        ({0: torch.export.Dim("points", min=2, max=16)},),
        constructs=("for->scan",),
    ),
    Case(
        "a_helper_slicing_by_a_count_read_with_item_in_a_loop",
        PackedPrefixes,
        _passages(4, [2, 9, 3, 1], 20),
        [_passages(3, [7, 8, 9], 5), _passages(5, [1, 2, 3, 4, 5], 100), _passages(2, [6, 1], 6)],
        _passage_dims(),
        constructs=("for->while_loop",),
    ),
    Case(
        "zero_argument_super_forward_in_a_branch",
        seeded(GatedDenoiser),
        (torch.randn(3, 4).abs() * 4,),
        [(-torch.rand(5, 4) - 0.5,), (torch.rand(2, 4) + 0.5,), (torch.rand(6, 4) * 0.1 + 0.2,)],
        ({0: torch.export.Dim("rows", min=2, max=16)},),
        constructs=("while->while_loop",),
    ),
    Case(
        "method_of_a_submodule_without_forward_called_in_a_loop_body",
        seeded(PerRowWalk),
        (torch.randn(6, 4) * 2,),
        [(torch.randn(2, 4) * 2,), (torch.zeros(3, 4),), (torch.randn(12, 4) * 5,)],
        ({0: torch.export.Dim("rows", min=2, max=16)},),
        constructs=("while->while_loop",),
    ),
    Case(
        "helper_reading_at_its_argmax_in_a_while_body",
        seeded(GreedyFill),
        (torch.tensor([3.0, 5.0, 2.0]), torch.tensor([6.0])),
        [  # filled from two slots; nothing needed; every slot emptied (break)
            (torch.tensor([1.0, 4.0, 9.0, 2.0]), torch.tensor([12.0])),
            (torch.tensor([1.0, 2.0]), torch.tensor([0.0])),
            (torch.tensor([1.0, 2.0, 3.0]), torch.tensor([50.0])),
        ],
        ({0: torch.export.Dim("slots", min=2, max=16)}, None),
        constructs=("while->while_loop",),
    ),
]
