"""Loops over a tensor's slices (`for x_t in x.unbind(1)`): a loop over the dim's size; loops over
lists the model built (`zip(drafted, probs)`, `reversed(outs)`), with `break` and a loop `else`; a loop over a helper's result (`for seg in find_runs(labels)`)."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded

STEPS = torch.export.Dim("steps", min=2, max=32)


class UnbindGRU(nn.Module):
    """`enumerate(x.unbind(1))` with appends and `torch.unbind(x, -2)` over a dynamic length."""

    def __init__(self):
        super().__init__()
        self.cell = nn.GRUCell(3, 5)
        self.out = nn.Linear(5, 2)

    def forward(self, x):
        h = torch.zeros(x.shape[0], 5)
        outs = []
        for t, x_t in enumerate(x.unbind(1)):
            h = self.cell(x_t * (1.0 + 0.1 * t), h)
            outs.append(self.out(h))
        total = h
        for x_t in torch.unbind(x, -2):
            total = total + x_t.sum(-1, keepdim=True)
        return torch.stack(outs, 1), total


class UnbindStaticChannels(nn.Module):
    """A loop over static channels stays plain Python (no graph loop)."""

    def forward(self, x):
        y = torch.zeros_like(x[:, 0])
        for c in x.unbind(dim=1):
            y = y * 0.5 + c
        return y


class Drafter(nn.Module):
    """A submodule whose own method (not forward) loops over a dynamic size."""

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(16, 8)
        self.cell = nn.GRUCell(8, 8)
        self.out = nn.Linear(8, 16)

    def encode(self, tokens):
        h = torch.zeros(1, 8)
        for i in range(tokens.shape[0]):
            h = self.cell(self.emb(tokens[i : i + 1]), h)
        return h


class DraftThenVerify(nn.Module):
    """Lists built by a loop over a tensor count, read back with `zip`, a `break` after an append,
    a loop `else` and an early return when nothing was drafted (speculative decoding)."""

    def __init__(self):
        super().__init__()
        self.lm = Drafter()

    def forward(self, prefix, n):
        h = self.lm.encode(prefix)
        drafted, scores = [], []
        for _ in range(int(n.item())):
            p = self.lm.out(h)[0].softmax(-1)
            tok = p.argmax()
            drafted.append(tok)
            scores.append(p[tok])
            h = self.lm.cell(self.lm.emb(tok.view(1)), h)
        if len(drafted) == 0:
            return prefix[-1:] * 0 - 1
        kept = []
        for tok, s in zip(drafted, scores):
            if s < 0.097:
                kept.append(tok + 100)
                break
            kept.append(tok)
        else:
            kept.append(prefix[0])
        return torch.stack(kept)


class ReversedPythonList(nn.Module):
    """A loop over a list of a static length stays a Python loop over the same items."""

    def forward(self, x):
        parts = []
        for k in range(3):
            parts.append(x * (k + 1))
        y = torch.zeros_like(x)
        for i, part in enumerate(reversed(parts)):
            y = y * 0.5 + part * (i + 1)
        for part in parts:
            if part.sum() > 0:
                break
            y = y - part
        else:
            y = y + 1
        return y


def derate(temp):
    t = temp.mean()
    if t < 0.0:
        scale = 0.7 + 0.01 * t.clamp(min=-20.0)
    else:
        scale = torch.tensor(1.0)
    return scale


class TwoSignalsOneLength(nn.Module):
    """Two inputs sharing one dynamic length, read step by step (a battery observer): inside the
    scan torch.export binds the length through a stride of an input (``sym_stride``)."""

    def __init__(self):
        super().__init__()
        self.gain = nn.Parameter(torch.tensor(0.05))
        self.ocv = nn.Sequential(nn.Linear(1, 8), nn.Tanh(), nn.Linear(8, 1))
        self.register_buffer("soc_prev", torch.tensor(0.5))

    def forward(self, current, voltage, temp):
        cap = 9000.0 * derate(temp)
        at_rest = current[:, 0].abs().max() < 0.05
        soc = (voltage[:, 0] - 3.0).clamp(0.0, 1.0) if at_rest else self.soc_prev.expand(current.shape[0])
        trace = []
        for t in range(current.shape[1]):
            predicted = self.ocv(soc.unsqueeze(-1)).squeeze(-1) - current[:, t] * self.gain
            soc = (soc - current[:, t] / cap * 100.0 + 0.02 * (voltage[:, t] - predicted)).clamp(0.0, 1.0)
            trace.append(soc)
        return torch.stack(trace, dim=1)


class StatesAsTensor(nn.Module):
    """`torch.tensor(states)` of a list a converted loop filled (a phase per sample)."""

    def forward(self, x):
        states = []
        for t in range(x.shape[0]):
            states.append((x[t].sum() > 0).long() + (x[t].abs().max() > 1.5).long())
        return torch.nn.functional.one_hot(torch.tensor(states), 3).float().mean(0)


class SmoothStages(nn.Module):
    """A loop reading the value it appended last (`out[-1]`) and how many (`len(out)`): hypnogram
    smoothing that forbids a stage right after another."""

    def forward(self, logits):
        pred = logits.argmax(-1)
        out = [pred[0]]
        for i in range(1, pred.shape[0]):
            cur = pred[i]
            if cur == 2 and out[-1] == 0:
                cur = torch.full((), 1, dtype=torch.long)
            if len(out) % 4 == 0:
                cur = torch.maximum(cur, out[-1])
            out.append(cur)
        return torch.stack(out)


def find_runs(labels):
    """Runs of equal labels as [start, end, label] rows, found by a `while` over a cursor."""
    runs = []
    i = 0
    while i < labels.shape[0]:
        j = i + 1
        while j < labels.shape[0] and labels[j] == labels[i]:
            j += 1
        runs.append(torch.stack([torch.tensor(i), torch.tensor(j), labels[i]]))
        i = j
    return runs


class ShortRunsRemoved(nn.Module):
    """Runs of class 1 shorter than 3 become class 0: a loop over the helper's list of runs (a list
    of a data-dependent length: iterated item by item, torch would fix it)."""

    def forward(self, scores):
        labels = scores.argmax(-1)
        out = labels.clone()
        for run in find_runs(labels):
            if run[2] != 1 or run[1] - run[0] >= 3:
                continue
            out[int(run[0]) : int(run[1])] = 0
        return out


class SeparatedMessages(nn.Module):
    """A loop over a method's list of (start, end) pairs (`for s, t in self._split(tokens)`): the
    messages between separator tokens, each skipped when empty, pooled and summed."""

    def _split(self, tokens):
        segments, start = [], 0
        for i in range(tokens.shape[0]):
            if tokens[i] == 0:
                segments.append((start, i))
                start = i + 1
        segments.append((start, tokens.shape[0]))
        return segments

    def forward(self, tokens):
        total = torch.zeros(())
        for s, t in self._split(tokens):
            if t - s == 0:
                continue
            total = total + tokens[s:t].float().mean() * (t - s)
        return total


class EndsOfSix(nn.Module):
    """`for chunk in x.split(6)` over a dynamic number of rows (the last chunk shorter), each
    chunk's rows summed and counted; `torch.split(x, 1, dim=1)` over static columns stays Python."""

    def forward(self, x):
        ends = []
        for chunk in x.split(6):
            ends.append(chunk.sum() + chunk.shape[0] * 100.0)
        cols = torch.zeros(x.shape[0])
        for col in torch.split(x, 1, dim=1):
            cols = cols + col[:, 0]
        return torch.stack(ends), cols


class JointsInOrder(nn.Module):
    """A visiting order built before the loop, `list(reversed(range(J)))` over a dynamic J (a
    config flag picks it), an early return naming the joint that failed."""

    def __init__(self, wrist_first=True):
        super().__init__()
        self.wrist_first = wrist_first

    def forward(self, start, limit):
        joints = start.shape[0]
        order = list(reversed(range(joints))) if self.wrist_first else list(range(joints))
        offsets = torch.zeros(joints)
        for j in order:
            if start[j] > limit[j]:
                return offsets, torch.tensor(float(j))
            offsets[j] = limit[j] - start[j] + 0.1 * j
        return offsets, torch.tensor(-1.0)


def _labelled(labels: list[int]) -> tuple:
    return (torch.nn.functional.one_hot(torch.tensor(labels), 2).float(),)


def _prefixes() -> list[tuple]:
    # nothing drafted; the first draft rejected; one accepted then one rejected; all accepted (else)
    drafts = [([10, 8, 9, 3], 0), ([8, 8, 0, 5, 13, 3, 10], 5), ([0, 6, 15, 13, 12, 12], 3), ([11, 9], 1)]
    return [(torch.tensor(prefix), torch.tensor([n])) for prefix, n in drafts]


LENGTH = torch.export.Dim("length", min=2, max=64)

CASES = [
    Case(
        "loop_over_a_helpers_list_of_runs",
        seeded(ShortRunsRemoved),
        _labelled([0, 1, 1, 0, 1, 1, 1, 1, 0]),
        [
            _labelled([1, 1]),  # one short run
            _labelled([0, 0, 0]),  # no run of class 1
            _labelled([1, 0, 1, 1, 1, 0, 1, 1, 0, 1]),  # short and long runs
        ],
        ({0: STEPS},),
    ),
    Case(
        "loop_over_a_methods_list_of_pairs",
        seeded(SeparatedMessages),
        (torch.tensor([3, 4, 0, 0, 5, 6, 7, 0, 2]),),
        [
            (torch.tensor([0, 0]),),  # separators only: every message empty
            (torch.tensor([4, 5]),),  # one message, no separator
            (torch.tensor([1, 0, 2, 3, 0, 9, 9, 9, 9, 0]),),  # a trailing separator
        ],
        ({0: LENGTH},),
        constructs=("for->while_loop",),
    ),
    Case(
        "loop_over_chunks_of_a_split",
        seeded(EndsOfSix),
        (torch.rand(14, 2),),
        [(torch.rand(7, 2),), (torch.rand(12, 2),), (torch.rand(17, 2),), (torch.rand(40, 2),)],
        ({0: torch.export.Dim("arrows", min=7, max=72)},),
        constructs=("for->while_loop",),
    ),
    Case(
        "loop_reads_its_last_appended_value",
        seeded(SmoothStages),
        (torch.randn(12, 3),),
        [(torch.randn(2, 3),), (torch.tensor([[5.0, 0, 0], [0, 0, 5.0], [0, 5.0, 0], [0, 0, 5.0]]),)],
        ({0: LENGTH},),
        constructs=("for->scan",),
    ),
    Case(
        "tensor_of_a_loop_filled_list",
        seeded(StatesAsTensor),
        (torch.randn(9, 3),),
        [(torch.randn(2, 3),), (torch.randn(30, 3) * 2,)],
        ({0: LENGTH},),
        constructs=("for->scan",),
    ),
    Case(
        "inputs_sharing_a_length_read_in_a_scan",
        seeded(TwoSignalsOneLength),
        (torch.rand(2, 12) + 0.1, torch.rand(2, 12) + 3.2, torch.tensor([20.0, 25.0])),
        [
            (torch.zeros(2, 5), torch.rand(2, 5) + 3.2, torch.tensor([-5.0, -9.0])),
            (torch.rand(2, 30), torch.rand(2, 30) + 3.0, torch.tensor([20.0, 25.0])),
        ],
        ({1: LENGTH}, {1: LENGTH}, None),
        constructs=("if->cond", "ifexp->cond", "for->scan"),
    ),
    Case(
        "zip_over_data_dependent_lists_with_break_and_else",
        seeded(DraftThenVerify),
        (torch.tensor([3, 1, 4, 1, 5]), torch.tensor([3])),
        _prefixes(),
        ({0: torch.export.Dim("prefix", min=2, max=32)}, None),
        constructs=("for->while_loop", "if->where"),
    ),
    Case(
        "loops_over_python_lists_stay_python",
        seeded(ReversedPythonList),
        (torch.randn(2, 3),),
        [(-torch.rand(2, 3),), (torch.rand(2, 3),)],
        ({0: torch.export.Dim("rows", min=2, max=8)},),
        constructs=("if->cond",),
    ),
    Case(
        "unbind_loops_over_dynamic_length",
        seeded(UnbindGRU),
        (torch.randn(2, 6, 3),),
        [(torch.randn(2, 2, 3),), (torch.randn(2, 17, 3),)],
        ({1: STEPS},),
        constructs=("for->scan", "for->while_loop"),
    ),
    Case(
        "loop_over_a_reversed_range_built_before_it",
        seeded(JointsInOrder),
        (torch.tensor([1.0, 2.0, 3.0, 4.0]), torch.tensor([5.0, 5.0, 5.0, 5.0])),
        [
            (torch.tensor([1.0, 9.0]), torch.tensor([5.0, 5.0])),  # the first joint visited fails
            (torch.tensor([9.0, 1.0, 1.0]), torch.tensor([5.0, 5.0, 5.0])),  # the last one fails
            (torch.zeros(8), torch.ones(8)),  # every joint passes
        ],
        ({0: torch.export.Dim("joints", min=2, max=8)}, {0: torch.export.Dim("joints", min=2, max=8)}),
        constructs=("for->while_loop",),
    ),
    Case(
        "unbind_static_channels_stay_python",
        seeded(UnbindStaticChannels),
        (torch.randn(2, 4, 5),),
        [(torch.randn(3, 4, 5),)],
        ({0: torch.export.Dim("batch", min=2, max=8)},),
    ),
]
