"""Python's list API on the lists converted loops fill, whose length is a dynamic or
data-dependent size while exporting: slices, `+`, `extend`, `pop`, `reversed`, `list()`, `sum()`,
`max()`, `xs[::-1]`, and `xs[0]` where the list may be empty (values.StackedList, list_builtins.py);
`[t for t in xs if t > 0]` of the loop's own list, its last value seeding the next step (kept_rows.py)."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded

STEPS = torch.export.Dim("steps", min=4, max=32)


class Smoothed(nn.Module):
    """One state per step, then the last three, every other one, their mean by `sum / len`, the
    states backwards, and two lists joined."""

    def forward(self, x):
        states, doubled = [], []
        h = torch.zeros(x.shape[1])
        for t in range(x.shape[0]):
            h = torch.tanh(h + x[t])
            states.append(h)
            doubled.append(2 * h)
        last = torch.stack(states[-3:])
        every_other = torch.stack(states[::2]).sum(0)
        mean = sum(states) / len(states)
        backwards = torch.stack(list(reversed(states)))
        joined = torch.cat(states + doubled)
        return last, every_other, mean, backwards, joined


class Tail(nn.Module):
    """`extend` and `pop` after the loop: the popped value scales the rest."""

    def forward(self, x):
        states = []
        h = torch.zeros(x.shape[1])
        for t in range(x.shape[0]):
            h = torch.tanh(h + x[t])
            states.append(h)
        states.extend([x[0], x[1]])
        final = states.pop()
        return torch.stack(states) * final.sum()


class Peaks(nn.Module):
    """Positive states kept (a data-dependent count, maybe 0): the first one (`xs[0]` under
    `len(xs) > 0`), the largest score by `max()`, and both lists joined."""

    def forward(self, x):
        kept, dropped, scores = [], [], []
        h = torch.zeros(x.shape[1])
        for t in range(x.shape[0]):
            h = torch.tanh(h + x[t])
            if h.sum() > 0:
                kept.append(h)
                scores.append(h.sum())
            else:
                dropped.append(-h)
        first = kept[0] * 2 if len(kept) > 0 else x[0]
        best = max(scores) if len(scores) > 0 else torch.zeros(())
        return first, best, torch.stack(kept + dropped)


class KeptCount(nn.Module):
    """`float(len(kept))`: the number of states a loop kept (a data-dependent count) as a float,
    with no guard on that count."""

    def forward(self, x):
        kept = [torch.zeros(x.shape[1])]
        h = torch.zeros(x.shape[1])
        for t in range(x.shape[0]):
            h = torch.tanh(h + x[t])
            if h.sum() > 0:
                kept.append(h)
        count = torch.full((1,), float(len(kept) - 1))
        return count, torch.stack(kept).sum(0) / count.clamp(min=1)


def _x(*shape, seed=0):
    return (torch.randn(*shape, generator=torch.Generator().manual_seed(seed)),)


class DiscountedReturns(nn.Module):
    """Returns accumulated backwards in time, reset where an episode ends, put back in time order
    with `[::-1]`; every other one of them from the last with `[::-2]`."""

    def forward(self, rewards, ends):
        running = torch.zeros(())
        backwards = []
        for t in reversed(range(rewards.shape[0])):
            if ends[t]:
                running = torch.zeros(())
            running = rewards[t] + 0.9 * running
            backwards.append(running)
        return torch.stack(backwards[::-1]), torch.stack(backwards[::-2])


class SeededFromLastPositive(nn.Module):
    """Each step starts from the last positive value found so far (`tested[-1] if len(tested) > 0
    else ...` of a filtered comprehension over the loop's own list); skipped steps append -1."""

    def forward(self, x, skip):
        found = []
        for i in range(x.shape[0]):
            if skip[i] > 0.5:
                found.append(torch.tensor(-1.0))
                continue
            tested = [t for t in found if t > 0]
            start = tested[-1] if len(tested) > 0 else torch.tensor(10.0)
            found.append(torch.relu(start * 0.5 + x[i]))
        return torch.stack(found)


CASES = [
    Case(
        "list_slices_sum_reversed_and_joined",
        seeded(Smoothed),
        _x(6, 3),
        [_x(4, 3, seed=1), _x(9, 3, seed=2)],
        ({0: STEPS},),
        constructs=("for->scan",),
    ),
    Case(
        "list_extend_and_pop_after_a_loop",
        seeded(Tail),
        _x(6, 3),
        [_x(4, 3, seed=1), _x(11, 3, seed=2)],
        ({0: STEPS},),
        constructs=("for->scan",),
    ),
    Case(
        "first_and_max_of_a_list_that_may_be_empty",
        seeded(Peaks),
        _x(6, 3),
        [(torch.ones(5, 3),), (-torch.ones(5, 3),), _x(9, 3, seed=2)],
        ({0: STEPS},),
        constructs=("for->scan", "if->cond"),
    ),
    Case(
        "float_of_the_length_of_a_list_kept_by_a_loop",
        seeded(KeptCount),
        _x(6, 3),
        [(torch.ones(5, 3),), (-torch.ones(5, 3),), _x(9, 3, seed=2)],
        ({0: STEPS},),
        constructs=("for->scan", "if->cond"),
    ),
    Case(
        "a_loop_filled_list_reversed_by_a_negative_step_slice",
        seeded(DiscountedReturns),
        (torch.linspace(0.1, 1.0, 6), torch.tensor([False, False, True, False, False, False])),
        [
            (torch.linspace(1.0, 0.0, 9), torch.tensor([True] + [False] * 7 + [True])),
            (torch.ones(4), torch.zeros(4, dtype=torch.bool)),
        ],
        ({0: STEPS}, {0: STEPS}),
        constructs=("if->cond",),
    ),
    Case(
        "filtered_comprehension_over_the_loops_own_list",
        seeded(SeededFromLastPositive),
        (torch.tensor([1.0, -20.0, 2.0, 3.0]), torch.tensor([0.0, 0.0, 1.0, 0.0])),
        [
            (torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0])),  # every step skipped
            (torch.tensor([-30.0, 1.0, 2.0]), torch.tensor([0.0, 0.0, 0.0])),  # none positive at first
            (torch.linspace(-3.0, 3.0, 12), (torch.arange(12) % 3 == 0).float()),
        ],
        ({0: torch.export.Dim("n", min=2, max=32)}, {0: torch.export.Dim("n", min=2, max=32)}),
        constructs=("for->while_loop",),
    ),
]
