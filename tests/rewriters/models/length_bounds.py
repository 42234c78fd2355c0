"""`while` loops bounded by the length of the one list they append to and read back
(passes/length_bounds.py): a keyframe picker taking up to k frames (k a tensor value) unlike those
already taken, a frame too close to a taken one dropped without using a slot (`continue`), the
search ending when the best frame left is too dim (`break`); and a `<=` test on a Python limit
whose body reads the list's length; a trajectory list holding its start state before the loop,
the loop breaking before its first append; an attractor search stopping at the first state seen
before (a helper's search loop, its index then slicing the list after the loop)."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded

FRAMES = torch.export.Dim("frames", min=2, max=48)


class KeyframePicker(nn.Module):
    """Up to k frames, greedily by brightness minus similarity to those already taken."""

    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(8, 8)

    def forward(self, frames, k):
        f = torch.nn.functional.normalize(self.embed(frames), dim=-1)
        brightness = frames.mean(dim=1)
        sim = f @ f.T
        left = torch.ones(frames.shape[0], dtype=torch.bool)
        taken = []
        k = int(k.item())
        while len(taken) < k and left.any():
            if taken:
                close = sim[:, torch.stack(taken)].amax(dim=1)
            else:
                close = torch.zeros_like(brightness)
            score = (brightness - 0.5 * close).masked_fill(~left, float("-inf"))
            best = score.argmax()
            if brightness[best] < 0.0:
                break
            left[best] = False
            if taken and close[best] > 0.9:
                continue
            taken.append(best)
        if not taken:
            return torch.zeros(0, dtype=torch.long), torch.zeros(0)
        idx = torch.stack(taken)
        return idx, brightness[idx]


class RunningTopUp(nn.Module):
    """Values taken while their running total stays below a budget, at most LIMIT + 1 of them; each
    weighed down by how many were taken before it."""

    LIMIT = 3

    def forward(self, x):
        kept = []
        total = torch.zeros(())
        i = torch.zeros((), dtype=torch.long)
        while len(kept) <= self.LIMIT and i < x.shape[0]:
            v = x[i] / (1.0 + len(kept))
            i = i + 1
            if v < 0.05:
                continue
            if total + v > 2.0:
                break
            total = total + v
            kept.append(v)
        return torch.stack(kept) if kept else torch.zeros(1), total


class Trajectory(nn.Module):
    """A boolean network's states from its start state until one has three genes on or the list holds
    LIMIT + 1 states; their mean activity."""

    LIMIT = 5

    def forward(self, w, x0):
        state = (x0 > 0.5).float()
        visited = [state]
        while len(visited) <= self.LIMIT:
            state = ((w @ state) > 0).float()
            if state.sum() >= 3:
                break
            visited.append(state)
        return torch.stack(visited).mean(0)


def _first_seen(visited, state):
    for k in range(len(visited)):
        if torch.equal(visited[k], state):
            return k
    return -1


class Attractor(nn.Module):
    """States from the start state until one repeats (or LIMIT + 1 are kept): the cycle's mean
    activity, its period and the transient's length; all states when none repeats."""

    LIMIT = 6

    def forward(self, w, x0):
        state = (x0 > 0.5).float()
        visited = [state]
        start = -1
        while len(visited) <= self.LIMIT:
            state = ((w @ state) > 0).float()
            start = _first_seen(visited, state)
            if start >= 0:
                break
            visited.append(state)
        if start < 0:
            period = 0
            orbit = torch.stack(visited)
            transient = len(visited)
        else:
            period = len(visited) - start
            orbit = torch.stack(visited[start:])
            transient = start
        return orbit.mean(0), torch.tensor([float(period), float(transient)])


def _ring(n, shift=1):
    return torch.roll(torch.eye(n), shift, dims=0)


def _network(seed, n):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(n, n, generator=g), torch.rand(n, generator=g)


def _frames(seed, n, k, dups=0, shift=1.0):
    g = torch.Generator().manual_seed(seed)
    frames = torch.randn(n, 8, generator=g) * 0.5 + shift
    for j in range(dups):
        frames[j + 1] = frames[0] + 0.01 * (j + 1)
    return frames, torch.tensor([k])


CASES = [
    Case(
        "a_while_bounded_by_the_length_of_the_list_it_appends_to_and_reads",
        seeded(KeyframePicker),
        _frames(0, 10, 3),
        [
            _frames(1, 12, 5, dups=3),  # near-duplicates dropped without using a slot
            _frames(2, 6, 0),  # k = 0: no iteration
            _frames(3, 3, 6),  # the frames run out before k
            _frames(4, 9, 4, shift=-1.0),  # nothing bright enough: the first iteration breaks
            _frames(5, 20, 8, shift=0.1),  # brightness runs out partway
        ],
        ({0: FRAMES}, None),
        constructs=("while->while_loop",),
    ),
    Case(
        "a_while_bounded_by_a_list_length_at_most_a_python_limit",
        seeded(RunningTopUp),
        (torch.tensor([0.3, 0.01, 0.4, 0.2, 0.1, 0.5]),),
        [
            (torch.tensor([0.3, 0.02, 0.4, 0.3, 0.3, 0.3, 0.3, 0.3]),),  # the length limit ends it
            (torch.tensor([1.5, 1.8, 0.1]),),  # the budget ends it (break)
            (torch.tensor([0.01, 0.02]),),  # nothing kept
            (torch.tensor([0.2, 0.3, 0.01]),),  # the values run out
        ],
        ({0: FRAMES},),
        constructs=("while->while_loop",),
    ),
    Case(
        "a_list_holding_an_entry_before_a_while_that_breaks_before_its_first_append",
        seeded(Trajectory),
        _network(0, 5),
        [
            (torch.eye(5), torch.ones(5)),  # the first step breaks: only the start state
            (-torch.eye(5), torch.ones(5)),  # never three on: the length limit ends it
            _network(2, 9),  # breaks at the first step
            _network(5, 5),  # breaks at the second step
        ],
        ({0: FRAMES, 1: FRAMES}, {0: FRAMES}),
        constructs=("while->while_loop",),
    ),
    Case(
        "a_search_for_a_repeated_state_in_a_while_bounded_by_the_list_it_appends_to",
        seeded(Attractor),
        (_ring(4), torch.tensor([1.0, 0.0, 0.0, 0.0])),
        [
            (torch.eye(5), torch.tensor([1.0, 0.0, 1.0, 0.0, 0.0])),  # a fixed point: the first step repeats
            (_ring(9), torch.zeros(9)),  # all off: period 1 from the start
            (_ring(9), torch.tensor([1.0] + [0.0] * 8)),  # a cycle longer than the limit: none repeats
            (_network(5, 6)[0], torch.tensor([1.0, 0.0, 1.0, 0.0, 1.0, 1.0])),  # 3 steps to a fixed point
            (-_ring(4) + torch.eye(4), torch.tensor([1.0, 1.0, 0.0, 0.0])),  # 1 step to a fixed point
        ],
        ({0: FRAMES, 1: FRAMES}, {0: FRAMES}),
        constructs=("while->while_loop",),
    ),
]
