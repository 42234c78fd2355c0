"""Recurrent state that starts as None (first iteration peeled), adaptive computation time,
dict outputs, branches on the loop counter, ranges that start at 1, a variable every branch of
an if/elif/else in a loop body sets afresh (its value before the loop never read there), a
string state that starts as None and is set together with other values (``state, n = "num", 1``)."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded

SEQ = torch.export.Dim("seq", min=1, max=64)
FRAMES = torch.export.Dim("frames", min=2, max=32)


def _frames(seed, n, step=0.8, blur=False):
    g = torch.Generator().manual_seed(seed)
    emb = torch.cumsum(torch.randn(n, 6, generator=g) * step, 0)
    sharp = torch.where(torch.arange(n) % 3 == 1, 0.1, 0.9) if blur else torch.full((n,), 0.9)
    return emb, sharp


class CellNoneInit(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = nn.GRUCell(3, 6)

    def forward(self, x):
        h = None
        outs = []
        for t in range(x.shape[1]):
            h = self.cell(x[:, t], h)
            outs.append(h)
        return torch.stack(outs, 1), h


class ACT(nn.Module):
    def __init__(self):
        super().__init__()
        self.halt = nn.Linear(4, 1)
        self.step = nn.Linear(4, 4)

    def forward(self, x):
        halt = torch.zeros(x.shape[0])
        n = 0
        out = torch.zeros_like(x)
        while (halt < 0.99).any() and n < 10:
            p = torch.sigmoid(self.halt(x)).squeeze(-1)
            x = torch.tanh(self.step(x))
            out = out + p.unsqueeze(-1) * x
            halt = halt + p
            n += 1
        return out, n


class DictOut(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        y = self.fc(x)
        if y.max() > 0.5:
            return {"logits": y, "flag": y.max()}
        return {"logits": -y, "flag": y.min()}


class FirstStep(nn.Module):
    def forward(self, x):
        h = torch.zeros(x.shape[0])
        for t in range(x.shape[1]):
            if t == 0:
                h = x[:, t]
            else:
                h = 0.5 * h + x[:, t]
        return h


class DecayFromOne(nn.Module):
    def forward(self, x):
        states = [x[:, 0]]
        h = x[:, 0]
        for t in range(1, x.shape[1]):
            h = h * 0.9 + x[:, t] * (t / 10.0)
            states.append(h)
        return torch.stack(states).transpose(0, 1)


class KeyframesFromOne(nn.Module):
    """Keyframe selection from frame 1 on (a visual-odometry front end); the sequence has >= 2 frames."""

    def forward(self, emb, sharp):
        last, last_t = emb[0], torch.zeros((), dtype=torch.long)
        keys, idx = [emb[0]], [last_t]
        for t in range(1, emb.shape[0]):
            if sharp[t] < 0.3:
                continue
            if (emb[t] - last).norm() > 1.5 or t - last_t >= 4:
                last, last_t = emb[t], torch.full((), t, dtype=torch.long)
                keys.append(emb[t])
                idx.append(last_t)
        return torch.stack(idx), torch.stack(keys)


class StackedCellsListState(nn.Module):
    """Stacked LSTM cells whose states live in Python lists indexed by layer (a ModuleList loop
    inside a loop over a dynamic length): the lists are the loop's state."""

    def __init__(self):
        super().__init__()
        self.cells = nn.ModuleList([nn.LSTMCell(3, 5), nn.LSTMCell(5, 5)])

    def forward(self, x):
        hs = [torch.zeros(1, 5) for _ in self.cells]
        cs = [torch.zeros(1, 5) for _ in self.cells]
        for t in range(x.shape[1]):
            inp = x[:, t]
            for layer, cell in enumerate(self.cells):
                hs[layer], cs[layer] = cell(inp, (hs[layer], cs[layer]))
                inp = hs[layer]
        return hs[-1], cs[0]


class DropoutAwareTracker(nn.Module):
    """Per-reading flags from reading 1 on, a dropped reading skipped with `continue` (every path
    appends); the stream has >= 2 readings, so the flags may be a single row."""

    def forward(self, p):
        mean, flags = p[0], []
        for t in range(1, p.shape[0]):
            if p[t].min() < 0:
                flags.append(torch.zeros(4))
                continue
            anomaly = (p[t] - mean).abs() > 0.5
            mean = torch.where(anomaly, mean, 0.9 * mean + 0.1 * p[t])
            flags.append(anomaly.float())
        return torch.stack(flags), mean


class PitchRegions(nn.Module):
    """Per step: idle, feathered or a PI law; `pitch` is set on every path of the if/elif/else, the
    integrator keeps its value outside the PI region."""

    def forward(self, wind):
        integ = torch.zeros(())
        pitch = torch.zeros(())
        out = []
        for t in range(wind.shape[0]):
            v = wind[t]
            if v < 3.0:
                pitch = torch.zeros(())
            elif v > 25.0:
                pitch = torch.full((), 90.0)
            else:
                err = v - 12.0
                integ = integ + 0.05 * err
                pitch = (0.8 * err + integ).clamp(0.0, 30.0)
            out.append(pitch)
        return torch.stack(out), integ


IDLE, RISING, HIGH, FALLING = 0, 1, 2, 3


def _odd_positives(x):
    """Parity of the positive entries: a flag flipped with `not` in a loop over a dynamic size."""
    odd = False
    for k in range(x.shape[0]):
        if x[k] > 0:
            odd = not odd
    return odd


class LevelTracker(nn.Module):
    """A state machine over a dynamic number of samples, tested with `state in (HIGH, FALLING)`
    afterwards; a helper's parity flag flipped with `not`."""

    def forward(self, x):
        state = IDLE
        for t in range(x.shape[0]):
            if x[t] > 1.0:
                state = HIGH if state in (RISING, HIGH) else RISING
            elif x[t] < -1.0 and state not in (IDLE,):
                state = FALLING
        odd = _odd_positives(x)
        if state in (HIGH, FALLING) and odd:
            return x.sum()
        return x.mean()


class Rotations(nn.Module):
    """A (2, 2, 2) state rotated along each axis per layer by ``movedim(q, 0)`` ... ``movedim(0,
    q)``: the body's state has the state's shape but other strides."""

    def rotate(self, state, theta, q):
        c, s = torch.cos(theta), torch.sin(theta)
        st = state.movedim(q, 0)
        return torch.stack([c * st[0] - s * st[1], s * st[0] + c * st[1]]).movedim(0, q)

    def forward(self, angles):
        state = torch.zeros(2, 2, 2)
        state[0, 0, 0] = 1.0
        trace = []
        for layer in range(angles.shape[0]):
            for q in range(3):
                state = self.rotate(state, angles[layer, q], q)
            trace.append(state.sum())
        steps = 0
        while state[1].abs().sum() > 0.5 and steps < 6:
            state = self.rotate(state, torch.tensor(0.3), 0)
            steps += 1
        return state, torch.stack(trace), torch.tensor(steps)


class NumberRuns(nn.Module):
    """A lexer's state machine: ``state`` is None between tokens, "num" inside a run of digits and
    "word" inside a run of letters; a digit run's length is counted alongside."""

    def forward(self, chars):
        state = None
        length = torch.tensor(0)
        longest = torch.tensor(0)
        words = torch.tensor(0)
        for i in range(chars.shape[0]):
            c = chars[i]
            if c >= 48 and c <= 57:
                if state == "num":
                    length = length + 1
                else:
                    state, length = "num", torch.tensor(1)
            elif c >= 97 and c <= 122:
                if state != "word":
                    words = words + 1
                state = "word"
            else:
                state = None
            if state is not None and state == "num":
                longest = torch.maximum(longest, length)
        return torch.stack([longest, words, torch.tensor(1 if state is None else 0)])


def _text(s: str) -> torch.Tensor:
    return torch.tensor([ord(ch) for ch in s])


CASES = [
    Case(
        "string_state_that_starts_as_none",
        seeded(NumberRuns),
        (_text("ab 123 c45"),),
        [
            (_text("x1 9999 yy "),),  # ends between tokens (None)
            (_text("12"),),  # digits only
            (_text("  "),),  # never leaves None
        ],
        ({0: FRAMES},),
        constructs=("for->while_loop",),
    ),
    Case(
        "rnn_cell_state_starts_none",
        seeded(CellNoneInit),
        (torch.randn(2, 5, 3),),
        [(torch.randn(2, 1, 3),), (torch.randn(2, 11, 3),)],
        ({1: SEQ},),
        constructs=("for->scan",),
    ),
    Case(
        "adaptive_computation_time",
        seeded(ACT),
        (torch.randn(2, 4),),
        [(torch.randn(2, 4) * 5,), (-torch.randn(2, 4) * 5,)],
        constructs=("while->while_loop",),
    ),
    Case(
        "dict_outputs_in_branches",
        seeded(DictOut),
        (torch.randn(2, 4),),
        [(torch.randn(2, 4) * 5,), (-torch.randn(2, 4) * 5,)],
        constructs=("if->cond",),
    ),
    Case(
        "branch_on_loop_counter",
        seeded(FirstStep),
        (torch.randn(2, 5),),
        [(torch.randn(2, 1),), (torch.randn(2, 11),)],
        ({1: SEQ},),
        constructs=("for->while_loop",),
    ),
    Case(
        "range_from_one_append",
        seeded(DecayFromOne),
        (torch.randn(2, 5),),
        [(torch.randn(2, 1),), (torch.randn(2, 12),)],
        ({1: SEQ},),
        constructs=("for->scan",),
    ),
    Case(
        "range_from_one_kept_appends_two_rows_min",
        seeded(KeyframesFromOne),
        _frames(0, 12),
        [_frames(1, 2), _frames(2, 3, step=0.01), _frames(3, 20), _frames(4, 9, blur=True)],
        ({0: FRAMES}, {0: FRAMES}),
        constructs=("for->scan",),
    ),
    Case(
        "list_of_states_indexed_by_layer",
        seeded(StackedCellsListState),
        (torch.randn(1, 6, 3),),
        [(torch.randn(1, 1, 3),), (torch.randn(1, 13, 3),)],
        ({1: SEQ},),
        constructs=("for->while_loop",),
    ),
    Case(
        "range_from_one_continue_appends_stacked",
        seeded(DropoutAwareTracker),
        (torch.rand(10, 4),),
        [(torch.rand(2, 4),), (torch.cat([torch.rand(3, 4), -torch.ones(1, 4), torch.rand(5, 4) * 3]),)],
        ({0: FRAMES},),
        constructs=("for->scan",),
    ),
    Case(
        "variable_set_on_every_path_of_an_elif_chain_in_a_loop",
        seeded(PitchRegions),
        (torch.tensor([2.1, 4.5, 13.5, 15.0, 27.0, 12.6]),),
        [(torch.tensor([1.0, 2.5]),), (torch.tensor([20.0, 26.5, 30.1, 24.0]),)],
        ({0: FRAMES},),
        constructs=("for->scan",),
    ),
    Case(
        "state_in_a_tuple_of_states_and_a_flag_flipped_with_not",
        seeded(LevelTracker),
        (torch.tensor([2.0, 3.0, 0.5, -0.5]),),
        [
            (torch.tensor([2.0, 3.0, 0.5]),),  # HIGH, odd: the sum
            (torch.tensor([2.0, -3.0, 0.5, 0.2]),),  # FALLING, even: the mean
            (torch.tensor([-2.0, 0.5]),),  # IDLE
            (torch.tensor([2.0, 0.5, -2.0]),),  # RISING then FALLING, odd
        ],
        ({0: torch.export.Dim("samples", min=2, max=32)},),
    ),
    Case(
        "loop_state_whose_strides_a_body_changes",
        seeded(Rotations),
        (torch.tensor([[0.4, 1.1, -0.2], [0.9, -0.5, 0.3], [0.1, 0.7, -0.4]]),),
        [
            (torch.tensor([[0.2, 0.3, 1.2], [0.5, -0.4, 1.3]]),),
            (torch.tensor([[2.0, 2.0, 2.0], [0.0, 0.0, 0.0]]),),
        ],
        ({0: torch.export.Dim("layers", min=2, max=16)},),
        constructs=("for->scan", "while->while_loop"),
    ),
]
