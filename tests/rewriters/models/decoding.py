"""Greedy decoding: a static-length loop that appends a token per step and breaks when every
sequence emitted EOS, so the output length depends on the data; a loop over
``range(int(k.item()))`` whose count may be 0."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded


class GreedyDecoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(6, 8)
        self.cell = nn.GRUCell(8, 8)
        self.out = nn.Linear(8, 6)
        self.max_len = 7
        self.eos = 3

    def forward(self, h):
        tok = torch.full((h.shape[0],), 1, dtype=torch.long)
        tokens = []
        for _ in range(self.max_len):
            h = self.cell(self.emb(tok), h)
            tok = self.out(h).argmax(-1)
            tokens.append(tok)
            if (tok == self.eos).all():
                break
        return torch.stack(tokens, 1)


class PeakPicker(nn.Module):
    """Detections collected only on some frames (``if ...: found.append(row)``) with a cooldown
    counter and a `continue`: the number of rows depends on the data, zero rows included."""

    def forward(self, scores):
        found = []
        cooldown = 0
        for t in range(scores.shape[0]):
            if cooldown > 0:
                cooldown -= 1
                continue
            best = scores[t].max()
            if best > 0.8 and scores[t, 0] < 0.5:
                found.append(torch.stack([torch.full((), float(t)) * 1.0, best]))
                cooldown = 2
        if len(found) == 0:
            return torch.zeros(0, 2)
        return torch.stack(found)


class Segments(nn.Module):
    """Runs of high energy as [start, end] rows: a state machine over a dynamic number of windows
    (``torch.tensor([start, w])`` of loop values, appended on some iterations), then a conditional
    append after the loop for a run still open at the end, and no rows at all when nothing fires."""

    def forward(self, energy):
        segments = []
        start = -1
        for w in range(energy.shape[0]):
            if energy[w] < 0.5:
                if start >= 0:
                    segments.append(torch.tensor([start, w], dtype=torch.float32))
                    start = -1
                continue
            if start < 0:
                start = w
        if start >= 0:
            segments.append(torch.tensor([start, energy.shape[0]], dtype=torch.float32))
        if len(segments) == 0:
            return torch.zeros(0, 2)
        return torch.stack(segments)


def _inputs_of_lengths(lengths: tuple[int, ...]) -> list[tuple]:
    """Hidden states that make the seeded decoder stop after each of ``lengths`` tokens."""
    model, generator, found = seeded(GreedyDecoder)(), torch.Generator().manual_seed(1), {}
    with torch.no_grad():
        for _ in range(2000):
            h = torch.randn(1, 8, generator=generator) * 3
            found.setdefault(model(h).shape[1], (h,))
            if all(n in found for n in lengths):
                break
    return [found[n] for n in lengths if n in found]


class BeatGrid(nn.Module):
    """A tensor `while` that appends with no step counter bounding it (beat tracking: walk the
    onset envelope by a learned period until the end): the loop runs twice, counting then filling."""

    def __init__(self):
        super().__init__()
        self.period = nn.Linear(4, 1)

    def forward(self, env):
        period = 2 + (self.period(env[:4].unsqueeze(0)).abs() * 3).floor().long().reshape(())
        pos = env[:6].argmax()
        beats = []
        while pos < env.shape[0]:
            beats.append(pos)
            nxt = pos + period
            if nxt >= env.shape[0]:
                break
            pos = nxt + 1 if env[nxt] > 0.5 else nxt
        return torch.stack(beats)


class CollapseUntilEnd(nn.Module):
    """CTC-style collapse with an end symbol: `continue` on blanks and repeats, `break` on the end
    symbol before anything is appended, and `break` once `len(tokens)` reaches a cap after one."""

    def forward(self, logits):
        best = logits.argmax(-1)
        tokens = []
        prev = torch.zeros((), dtype=torch.long)
        for t in range(best.shape[0]):
            sym = best[t]
            repeated = sym == prev
            prev = sym
            if sym == 0 or repeated:
                continue
            if sym == 1:
                break
            tokens.append(sym)
            if len(tokens) >= 4:
                break
        if len(tokens) == 0:
            return torch.full((1,), -1, dtype=torch.long)
        return torch.stack(tokens)


def _symbols(*rows: int) -> tuple:
    return (torch.nn.functional.one_hot(torch.tensor(rows), 6).float() * 5.0,)


class GreedyWalk(nn.Module):
    """A budgeted walk: a `while` on a tensor that appends each position, with a `break` in one
    branch before `cost` is assigned (no value before the loop; the break path skips the append)."""

    def forward(self, gains, budget):
        pos = torch.zeros((), dtype=torch.long)
        path = [pos]
        energy = budget[0]
        while energy > 0.0:
            step = gains[pos]
            if step.max() > 0.5:
                pos = torch.argmax(step)
                cost = step.max()
            else:
                if step.sum() < 0.1:
                    break
                pos = (pos + 1) % gains.shape[0]
                cost = torch.ones(())
            energy = energy - cost
            path.append(pos)
        return torch.stack(path), energy.reshape(1)


class ChannelChecks(nn.Module):
    """A static loop over channels with a tensor `continue` (a one-iteration loop per channel
    inside, whose tensor break ends it: no graph loop around the scan that follows)."""

    def forward(self, obs):
        flags, cleaned = [], []
        for c in range(3):
            x = obs[c]
            ok = x > -50.0
            if not ok.any():
                flags.append(torch.tensor(1.0))
                cleaned.append(torch.zeros_like(x))
                continue
            good = x[ok]
            flags.append(good.max())
            last, filled = good[0], []
            for t in range(x.shape[0]):  # a scan (appends) after the channel's `continue`
                last = torch.where(ok[t], x[t], last)
                filled.append(last)
            cleaned.append(torch.stack(filled))
        return torch.stack(flags), torch.stack(cleaned)


PAD, EOS = 0, 2


class FirstFlagged(nn.Module):
    """Positions whose score passes a threshold, in order, at most three: a Python `while` over a
    dynamic size (``i < n``, its bound not a Python number) that appends and breaks on the count."""

    def forward(self, s):
        flagged = []
        i, n = 0, s.shape[0]
        while i < n:
            if s[i] > 0.9:
                flagged.append(s[i] * 10 + i)
                if len(flagged) >= 3:
                    break
            i += 1
        return torch.stack(flagged) if len(flagged) > 0 else torch.zeros(0)


def _step_scores(h, t):
    """A helper the loop body calls, writing into a fresh tensor in place (a length prior)."""
    prior = torch.zeros(5)
    prior[EOS] = 0.5 * t
    logits = h + prior
    logits[:, PAD] = float("-inf")
    return logits


class BudgetedDecode(nn.Module):
    """Decoding that first checks whether every beam finished (`if done: break` leads the body),
    then grows the token matrix: the test becomes the loop's condition, the body needs no cond."""

    def __init__(self):
        super().__init__()
        self.cell = nn.Linear(5, 5)

    def forward(self, h, budget):
        tokens = torch.zeros(2, 1, dtype=torch.long)
        finished = torch.zeros(2, dtype=torch.bool)
        for t in range(int(budget.item())):
            if finished.all():
                break
            h = torch.tanh(self.cell(h))
            tok = torch.argmax(_step_scores(h, t), dim=-1)
            tokens = torch.cat([tokens, tok[:, None]], dim=1)
            finished = finished | (tok == EOS)
        return tokens, h


class StepsOrEmpty(nn.Module):
    """A greedy decoding loop over `int(max_len.item())` with a tensor `break`, then `if not
    tokens: return torch.full((batch, 0), ...)` else `torch.stack(tokens, 1)`: the branches' outputs
    differ in size and in the order of their strides (a transposed stack)."""

    def __init__(self):
        super().__init__()
        self.cell = nn.Linear(4, 4)

    def forward(self, h, max_len):
        tokens = []
        for _ in range(int(max_len.item())):
            h = torch.tanh(self.cell(h))
            tok = h.argmax(-1)
            tokens.append(tok)
            if bool((tok == 0).all()):
                break
        if not tokens:
            return torch.full((h.shape[0], 0), -1, dtype=torch.long)
        return torch.stack(tokens, 1)


class CountedRows(nn.Module):
    """Rows appended for ``range(int(k[0].item()))`` with a tensor ``break``; a count of 0 runs no
    step and takes the empty-list branch."""

    def forward(self, x, k):
        n = int(k[0].item())
        rows = []
        for h in range(n):
            if x[h % x.shape[0]].sum() > 5.0:
                break
            rows.append(x[h % x.shape[0]] * (h + 1))
        if len(rows) == 0:
            return torch.zeros(1, 3)
        return torch.stack(rows)


CASES = [
    Case(
        "collapse_with_continue_and_breaks_before_and_after_appends",
        seeded(CollapseUntilEnd),
        _symbols(0, 2, 2, 0, 3, 4, 1, 5),
        [_symbols(2, 3, 4, 5, 2, 3), _symbols(1, 2, 3), _symbols(0, 0, 0), _symbols(2, 0, 2, 5, 5, 1)],
        ({0: torch.export.Dim("frames", min=2, max=64)},),
        constructs=("for->while_loop",),
    ),
    Case(
        "while_appends_without_a_bound",
        seeded(BeatGrid),
        (torch.rand(40),),
        [(torch.rand(9),), (torch.rand(120) * 0.4,), (torch.rand(6),)],
        ({0: torch.export.Dim("frames", min=6, max=256)},),
        constructs=("while->while_loop",),
    ),
    Case(
        "greedy_decode_append_break",
        seeded(GreedyDecoder),
        (torch.randn(1, 8),),
        _inputs_of_lengths((1, 3, 5, 7)),
        constructs=("for->while_loop",),
    ),
    Case(
        "filtered_appends_data_dependent_rows",
        seeded(PeakPicker),
        (torch.rand(12, 3),),
        [
            (torch.rand(5, 3) * 0.5,),
            (torch.rand(20, 3),),
            (torch.rand(40, 3) + torch.tensor([0.0, 0.5, 0.5]),),
        ],
        ({0: torch.export.Dim("frames", min=2, max=64)},),
        constructs=("for->scan",),
    ),
    Case(
        "segments_open_at_the_end",
        seeded(Segments),
        (torch.tensor([0.1, 0.9, 0.8, 0.2, 0.1, 0.7, 0.1, 0.1]),),
        [
            (torch.full((5,), 0.1),),
            (torch.tensor([0.9, 0.9, 0.1, 0.6, 0.7]),),
            (torch.rand(40, generator=torch.Generator().manual_seed(4)),),
        ],
        ({0: torch.export.Dim("windows", min=2, max=64)},),
        constructs=("for->scan",),
    ),
    Case(
        "while_appends_with_break_before_a_variable_is_set",
        seeded(GreedyWalk),
        (torch.rand(5, 5), torch.tensor([3.0])),
        [
            (torch.rand(5, 5), torch.tensor([0.0])),
            (torch.rand(5, 5) * 0.01, torch.tensor([2.0])),
            (torch.rand(5, 5) * 0.3, torch.tensor([4.0])),
            (torch.rand(5, 5) + 0.6, torch.tensor([5.0])),
        ],
        constructs=("while->while_loop",),
    ),
    Case(
        "static_loop_continue_then_scan",
        seeded(ChannelChecks),
        (torch.randn(3, 8),),
        [
            (torch.cat([torch.full((1, 8), -99.0), torch.randn(2, 8)]),),
            (torch.where(torch.rand(3, 8) > 0.5, -99.0, 1.0),),
        ],
        ({1: torch.export.Dim("steps", min=2, max=64)},),
        constructs=("if->cond",),
    ),
    Case(
        "leading_break_then_growing_tokens",
        seeded(BudgetedDecode),
        (torch.randn(2, 5), torch.tensor([6])),
        [
            (torch.randn(2, 5), torch.tensor([0])),
            (torch.randn(2, 5) * 3, torch.tensor([9])),
            (torch.randn(2, 5), torch.tensor([2])),
        ],
        constructs=("for->while_loop",),
    ),
    Case(
        "while_over_a_dynamic_size_appends_until_a_count",
        seeded(FirstFlagged),
        (torch.tensor([0.1, 0.95, 0.2, 0.99, 0.3]),),
        [
            (torch.tensor([0.1, 0.2, 0.3]),),
            (torch.tensor([0.91, 0.92, 0.93, 0.94, 0.95, 0.96]),),
            (torch.tensor([0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.97]),),
        ],
        ({0: torch.export.Dim("n", min=3, max=64)},),
    ),
    Case(
        "empty_or_stacked_steps_after_a_data_bound_loop",
        seeded(StepsOrEmpty),
        (torch.randn(3, 4), torch.tensor(5)),
        [
            (torch.randn(2, 4), torch.tensor(0)),
            (torch.randn(4, 4), torch.tensor(2)),
            (torch.randn(5, 4), torch.tensor(9)),
        ],
        ({0: torch.export.Dim("batch", min=2, max=16)}, None),
        constructs=("for->while_loop", "if->cond"),
    ),
    Case(
        "appends_over_a_data_dependent_range_whose_count_may_be_zero",
        CountedRows,
        (torch.ones(4, 3), torch.tensor([3])),
        [
            (torch.ones(4, 3), torch.tensor([0])),  # no step
            (torch.ones(5, 3) * 2, torch.tensor([7])),  # breaks at once
        ],
        ({0: torch.export.Dim("rows", min=2, max=16)}, None),
    ),
]
