"""Values torch lifts into graph op bodies: a module-level constant tensor a helper reads inside a
loop body, a Python constant stored at tensor positions, and values lifted through three nested loops (dynamo names each lifted input after its
value and a suffix; a name one level up may already carry that suffix)."""

import torch
from torch import nn

from tests.rewriters.models.case import Case

WEIGHTS = torch.tensor([1, 3, 1, 3, 1, 3])
SCALE = torch.tensor([1.0, 3.0, 1.0])


def _score(row):
    return (row * SCALE).sum()


def _checksum_ok(code):
    total = (code[:6] * WEIGHTS).sum()
    return (10 - total % 10) % 10 == code[6]


class ConstantInScan(nn.Module):
    """A helper reading a module-level constant tensor, called per row (scan refuses the constant
    as an input; the loop is emitted as a while_loop instead)."""

    def forward(self, x):
        outs = []
        for i in range(x.shape[0]):
            s = _score(x[i])
            if s > 0:
                outs.append(s)
            else:
                outs.append(-s)
        return torch.stack(outs)


class ChecksumRepair(nn.Module):
    """Per code: keep it when its check digit holds, else try digits 0-4 at each doubtful position
    until one makes it hold."""

    def forward(self, digits, confidence):
        fixed = []
        for b in range(digits.shape[0]):
            code = digits[b]
            if _checksum_ok(code):
                fixed.append(code)
                continue
            doubtful = torch.nonzero(confidence[b] < 0.5).flatten()
            repaired = code
            state = 2
            for k in range(doubtful.shape[0]):
                pos = doubtful[k]
                for digit in range(5):
                    trial = code.clone()
                    trial[pos] = digit
                    if _checksum_ok(trial):
                        repaired = trial
                        state = 1
                        break
                if state == 1:
                    break
            fixed.append(repaired)
        return torch.stack(fixed)


class GreedyLabels(nn.Module):
    """Greedy graph colouring: each node takes the first label none of its earlier-labelled
    neighbours use, marked by ``used[labels[nbr]] = True`` (a Python constant stored at tensor
    positions inside the loop body)."""

    def forward(self, adjacency):
        n = adjacency.shape[0]
        labels = torch.full((n,), -1, dtype=torch.int64)
        for v in range(n):
            nbr = adjacency[v] & (labels >= 0)
            if not nbr.any():
                labels[v] = 0
                continue
            used = torch.zeros(4, dtype=torch.bool)
            used[labels[nbr]] = True
            labels[v] = torch.where(used, 3, torch.arange(4)).min()  # label 3 when all are used
        return labels


def _graph(n: int, seed: int, density: float) -> tuple:
    g = torch.Generator().manual_seed(seed)
    upper = torch.rand(n, n, generator=g).triu(1) < density
    return (upper | upper.T,)


def _code(prefix: list[int], wrong_at: int = -1, doubt: tuple = ()) -> tuple:
    total = sum(d * w for d, w in zip(prefix, [1, 3] * 3))
    code = prefix + [(10 - total % 10) % 10]
    confidence = [0.9] * 7
    if wrong_at >= 0:
        code[wrong_at] = (code[wrong_at] + 3) % 10
    for position in doubt:
        confidence[position] = 0.2
    return code, confidence


def _codes(*entries) -> tuple:
    codes, confidences = zip(*entries)
    return torch.tensor(codes), torch.tensor(confidences)


CASES = [
    Case(
        "a_module_constant_read_by_a_helper_in_an_appending_loop",
        ConstantInScan,
        (torch.tensor([[1.0, 2.0, 0.5], [-1.0, -2.0, 0.0], [0.5, -0.1, 0.2]]),),
        [(torch.tensor([[2.0, 1.0, 0.0], [-3.0, 0.5, 0.5]]),), (torch.tensor([[-1.0, 0.0, 0.0]] * 5),)],
        ({0: torch.export.Dim("rows", min=2, max=16)},),
    ),
    Case(
        "a_python_constant_stored_at_tensor_positions_in_a_loop_body",
        GreedyLabels,
        _graph(6, 0, 0.5),
        [_graph(3, 1, 0.0), _graph(9, 2, 0.7), _graph(12, 3, 0.3)],
        ({0: torch.export.Dim("nodes", min=2, max=32), 1: torch.export.Dim("nodes", min=2, max=32)},),
    ),
    Case(
        "three_nested_loops_lifting_values_from_each_level",
        ChecksumRepair,
        _codes(_code([1, 2, 3, 4, 5, 6]), _code([4, 0, 2, 9, 1, 7], 2, (2, 5))),
        [
            _codes(_code([5, 5, 1, 0, 2, 8]), _code([9, 9, 9, 0, 0, 1])),
            _codes(_code([3, 1, 4, 1, 5, 9], 4, (0, 4)), _code([2, 7, 1, 8, 2, 8], 1, (3, 4))),
            _codes(_code([0, 0, 0, 1, 1, 1], 0, ()), _code([6, 2, 6, 2, 6, 2], 5, (5,))),
            _codes(_code([2, 7, 1, 8, 2, 8], 1, (3,)), _code([1, 1, 1, 1, 1, 1])),
        ],
        ({0: torch.export.Dim("codes", min=2, max=16)}, {0: torch.export.Dim("codes", min=2, max=16)}),
    ),
]
