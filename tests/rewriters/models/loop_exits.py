"""`return` inside loops that build lists: the loop stops with a `break` and the `return` runs
after it on the values it would have seen (passes/loop_exits.py), with the assignments right before
it that read the list; a Python-int counter the `return` reads, and a list padded with
``[s] * (n - len(states))``."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded

LAYERS = torch.export.Dim("layers", min=2, max=64)


class RejectEarly(nn.Module):
    """Scores one layer at a time and rejects once too many are bad, returning the scores so far
    (a stack of the rows appended up to the `return`)."""

    def __init__(self):
        super().__init__()
        self.score = nn.Linear(4, 1)

    def forward(self, layers):
        bad = torch.zeros((), dtype=torch.int64)
        scores = []
        for i in range(layers.shape[0]):
            cov = layers[i, 0]
            scores.append(torch.sigmoid(self.score(layers[i])).squeeze(-1) * cov)
            if cov < 0.5:
                bad = bad + 1
                if bad > 1:
                    return torch.tensor(-1), torch.stack(scores)
        return bad, torch.stack(scores)


class FirstLoudFrame(nn.Module):
    """Returns the first frame index whose energy passes a threshold (the loop's counter, read by
    the `return`) and the energies collected so far."""

    def forward(self, frames):
        energies = []
        for t in range(frames.shape[0]):
            e = frames[t].pow(2).mean()
            energies.append(e)
            if e > 2.0:
                return torch.tensor(t), torch.stack(energies)
        return torch.tensor(-1), torch.stack(energies)


def _layers(covs):
    x = torch.rand(len(covs), 4, generator=torch.Generator().manual_seed(3))
    x[:, 0] = torch.tensor(covs)
    return x


def _frames(n, loud=None):
    x = torch.rand(n, 6, generator=torch.Generator().manual_seed(4))
    if loud is not None:
        x[loud] = 3.0
    return x


class GreedySettle(nn.Module):
    """A `return` inside a loop over `int(budget.item())` that reads values of different dtypes and
    ranks the body assigns (a float vector, an int64 vector, an int64 index): their result slots get
    no value before the loop, so their placeholders come from a probe of the body."""

    def forward(self, cost, budget):
        n = cost.shape[0]
        ids = torch.arange(n)
        done = torch.zeros(n, dtype=torch.bool)
        order = torch.full((n,), -1, dtype=torch.long)
        for step in range(int(budget.item())):
            cand = torch.where(done, 100.0, cost)
            u = cand.argmin()
            if cand[u] > 5.0:
                return order, cost[u], cand
            done = done | (ids == u)
            order = torch.where(ids == u, step, order)
            cost = cost + 1.0
        return order, torch.tensor(-1.0), cost


class SettleUntilStill(nn.Module):
    """Smooths a state until it stops changing (`torch.equal` of the next state and the last), at
    most `steps` (a tensor) times."""

    def forward(self, x, steps):
        for _ in range(int(steps.item())):
            nxt = torch.round(0.5 * (x + x.roll(1, 0)))
            if torch.equal(nxt, x):
                break
            x = nxt
        return x


class StrongRows(nn.Module):
    """Keeps rows of a tensor-bounded loop until one is weak (`break`), then projects the data on
    them; with none kept (`if not kept:`) it returns (0, D) rows and an (N, 0) projection. torch.cond
    cannot merge the (N, 0) projection with the (N, u) one, whose stride is ``Max(1, u)``."""

    def forward(self, x, k):
        kept = []
        for i in range(int(k.item())):
            row = x[i]
            if row.norm() < 1.0:
                break
            kept.append(row)
        if not kept:
            return x.new_zeros(0, x.shape[1]), x.new_zeros(x.shape[0], 0)
        rows = torch.stack(kept)
        return rows, x @ rows.T


class RejectMidway(nn.Module):
    """Running levels of a sequence, rejected as soon as a step is invalid; otherwise the levels
    (one per step) weight a projection of every step: where no `return` ran, the list holds one row
    per step (full_lists.py), which torch cannot tell from a `break` that may stop the loop early."""

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(3, 3)

    def forward(self, x):
        gains = []
        level = torch.zeros(())
        for i in range(x.shape[0]):
            v = x[i, 0]
            if v < -2.0:
                return torch.tensor(0), torch.zeros(3)
            level = level + v
            gains.append(level)
        g = torch.stack(gains)
        return torch.tensor(1), (self.proj(x) * g.unsqueeze(-1)).mean(0)


class BracketDepths(nn.Module):
    """The nesting depth at every token; a quote appends and `continue`s, an unmatched closer returns
    its position. The depths are added to the tokens' own values after the loop."""

    def forward(self, tokens):
        depths = []
        depth = 0
        for i in range(tokens.shape[0]):
            t = int(tokens[i])
            if t == 3:
                depths.append(depth)
                continue
            if t == 1:
                depth += 1
            elif t == 2:
                if depth == 0:
                    return torch.tensor(i), tokens * 0
                depth -= 1
            depths.append(depth)
        return torch.tensor(-1), tokens + torch.tensor(depths)


def _steps(n, bad=None):
    x = torch.rand(n, 3, generator=torch.Generator().manual_seed(6))
    if bad is not None:
        x[bad, 0] = -3.0
    return x


def _rows(n, weak=None):
    x = torch.randn(n, 5, generator=torch.Generator().manual_seed(5)) + 2.0
    if weak is not None:
        x[weak] = 0.1
    return x


class RefuelStops(nn.Module):
    """A tensor ``while`` appending a row per stop that returns early with ``plan =
    torch.stack(stops) if stops else empty`` assigned right before the `return`."""

    def forward(self, stations, goal):
        pos = torch.zeros(())
        stops = []
        while pos < goal[0]:
            ahead = stations > pos
            if not ahead.any():
                plan = torch.stack(stops) if stops else torch.zeros(0, 2)
                return plan, pos
            nxt = torch.where(ahead, stations, torch.full_like(stations, float("inf"))).min()
            stops.append(torch.stack([nxt, nxt - pos]))
            pos = nxt
        plan = torch.stack(stops) if stops else torch.zeros(0, 2)
        return plan, -pos


class CountdownTrace(nn.Module):
    """A countdown state machine whose states are Python ints: the count one state changes (a
    Python int) is returned from another state inside the tensor loop, with the states so far
    padded by ``[9] * (n - len(states))`` (a data-dependent count)."""

    def forward(self, x):
        n = x.shape[0]
        state = 0
        count = 3
        states = []
        for t in range(n):
            if state == 0:
                if x[t] > 0:
                    count -= 1
                    if count == 0:
                        state = 1
                else:
                    state = 2
            elif state == 2:
                if x[t] > 0:
                    state = 0
            else:
                if x[t] < -2.0:
                    states.append(9)
                    codes = torch.tensor(states + [9] * (n - len(states)))
                    return codes, torch.tensor(count)
            states.append(state)
        codes = torch.tensor(states + [state] * (n - len(states)))
        return codes, torch.tensor(count)


class FirstHotTile(nn.Module):
    """Scans a grid of tiles row by row and returns where the first hot tile is: both loops'
    counters, read by a `return` inside the inner loop, and the heat map so far."""

    def forward(self, image):
        nh, nw = image.shape[0] // 4, image.shape[1] // 4
        heat = image.new_zeros((nh, nw))
        for i in range(nh):
            for j in range(nw):
                tile = image[i * 4 : (i + 1) * 4, j * 4 : (j + 1) * 4]
                if tile.mean() < 0.1:
                    continue  # an empty tile
                heat[i, j] = tile.mean()
                if tile.max() > 1.5:
                    if tile.max() > 2.0:
                        return heat, torch.tensor([i, j])
        return heat, torch.tensor([-1, -1])


def _image(h, w, hot=None):
    x = torch.rand(h, w, generator=torch.Generator().manual_seed(5))
    if hot is not None:
        x[hot] = 3.0
    return x


def _nearest_exit(exits, blocked, z):
    """The side of the nearest open exit (0: zone ``z`` has one), None when none is open."""
    n = exits.shape[0]
    for dist in range(n):
        for side in (-1, 1):
            j = z + side * dist
            if j < 0 or j >= n:
                continue
            if exits[j] > 0.5 and not blocked[j]:
                return 0 if dist == 0 else side
    return None


class ExitSides(nn.Module):
    """A `return side` inside a loop over a literal tuple (which stays Python) nested in a graph
    loop: the `return` moves after the loops, and it must read the side of the iteration that
    returned, not the tuple's last item (the loop idles on after a tensor `break`)."""

    def forward(self, exits, smoke):
        blocked = smoke > 0.8
        out = torch.zeros(exits.shape[0])
        for z in range(exits.shape[0]):
            d = _nearest_exit(exits, blocked, z)
            if d is None:
                out[z] = 99.0
                continue
            out[z] = float(d)
        return out


CASES = [
    Case(
        "return_in_a_loop_with_the_rows_so_far",
        seeded(RejectEarly),
        (_layers([0.9, 0.8, 0.7, 0.9]),),
        [(_layers([0.9, 0.3, 0.2, 0.9, 0.1]),), (_layers([0.9, 0.2, 0.9]),), (_layers([0.2, 0.1]),)],
        ({0: LAYERS},),
        constructs=("for->while_loop", "if->cond"),
    ),
    Case(
        "return_in_a_loop_reading_its_counter",
        seeded(FirstLoudFrame),
        (_frames(5),),
        [(_frames(6, 2),), (_frames(3, 0),), (_frames(4, 3),)],
        ({0: torch.export.Dim("frames", min=2, max=32)},),
        constructs=("for->while_loop", "if->cond"),
    ),
    Case(
        "return_in_a_data_bound_loop_reading_values_of_several_dtypes",
        seeded(GreedySettle),
        (torch.tensor([3.0, 0.5, 2.0, 1.0]), torch.tensor(3)),
        [
            (torch.tensor([3.0, 0.5, 2.0, 1.0, 2.5]), torch.tensor(6)),
            (torch.tensor([6.0, 7.0]), torch.tensor(2)),
            (torch.tensor([1.0, 0.5, 2.0]), torch.tensor(0)),
        ],
        ({0: torch.export.Dim("nodes", min=2, max=32)}, None),
        constructs=("for->while_loop", "if->cond"),
    ),
    Case(
        "torch_equal_of_two_states_stops_a_loop",
        seeded(SettleUntilStill),
        (torch.tensor([4.0, 0.0, 2.0, 2.0]), torch.tensor(5)),
        [
            (torch.tensor([2.0, 2.0, 2.0]), torch.tensor(3)),
            (torch.tensor([8.0, 0.0, 0.0, 0.0, 8.0]), torch.tensor(2)),
            (torch.tensor([8.0, 0.0]), torch.tensor(0)),
        ],
        ({0: torch.export.Dim("cells", min=2, max=32)}, None),
        constructs=("for->while_loop", "if->cond"),
    ),
    Case(
        "return_in_a_loop_whose_list_holds_a_row_per_step_where_it_did_not_return",
        seeded(RejectMidway),
        (_steps(6),),
        [(_steps(9),), (_steps(7, 3),), (_steps(4, 0),), (_steps(5, 4),)],
        ({0: torch.export.Dim("steps", min=2, max=64)},),
        constructs=("for->while_loop", "if->cond"),
    ),
    Case(
        "return_in_a_loop_with_continue_whose_list_is_read_with_the_input",
        BracketDepths,
        (torch.tensor([1, 5, 3, 1, 2, 2]),),
        [
            (torch.tensor([1, 1, 3, 5, 2, 3, 2, 7]),),
            (torch.tensor([1, 2, 2, 1, 1]),),
            (torch.tensor([2, 1, 1]),),
            (torch.tensor([5, 3, 3, 7]),),
        ],
        ({0: torch.export.Dim("tokens", min=2, max=64)},),
        constructs=("for->while_loop", "if->cond"),
    ),
    Case(
        "a_projection_on_rows_a_loop_may_not_keep",
        seeded(StrongRows),
        (_rows(8), torch.tensor(3)),
        [(_rows(8), torch.tensor(0)), (_rows(8, 0), torch.tensor(3)), (_rows(9, 2), torch.tensor(4))],
        ({0: torch.export.Dim("points", min=6, max=64)}, None),
        constructs=("for->while_loop", "if->cond"),
    ),
    Case(
        "return_in_a_tensor_while_after_stacking_its_list",
        RefuelStops,
        (torch.tensor([1.0, 3.0, 6.0]), torch.tensor([5.0])),
        [
            (torch.tensor([1.0, 3.0, 6.0, 2.0]), torch.tensor([10.0])),  # runs out of stations: returns
            (torch.tensor([-1.0, -3.0]), torch.tensor([5.0])),  # returns before any stop
            (torch.tensor([1.0, 3.0]), torch.tensor([0.5])),  # no iteration
        ],
        ({0: torch.export.Dim("stations", min=2, max=32)}, None),
        constructs=("while->while_loop", "if->cond"),
    ),
    Case(
        "return_in_a_loop_of_a_python_int_another_branch_changes_and_a_padded_list",
        CountdownTrace,
        (torch.tensor([1.0, -1.0, 1.0, 1.0, -1.0, 1.0]),),
        [
            (torch.tensor([-1.0, 1.0, -1.0]),),  # never counts down
            (torch.tensor([1.0, 1.0, 1.0, -3.0]),),  # returns at the last step
            (torch.tensor([1.0, -1.0, 1.0, 1.0, 1.0, -3.0, 1.0, 1.0]),),  # returns early: padded
        ],
        ({0: torch.export.Dim("steps", min=2, max=32)},),
        constructs=("for->while_loop", "if->cond"),
    ),
    Case(
        "return_in_an_inner_loop_reading_both_counters",
        FirstHotTile,
        (_image(12, 8, (9, 5)),),
        [
            (_image(8, 8),),  # no hot tile: both loops run out
            (_image(8, 8) * 0.1,),  # every tile empty
            (_image(8, 12, (1, 2)),),  # the first tile is hot
            (_image(16, 8, (13, 1)),),  # the last row of tiles
        ],
        ({0: torch.export.Dim("rows", min=8, max=32), 1: torch.export.Dim("cols", min=8, max=32)},),
        constructs=("for->while_loop", "if->cond"),
    ),
    Case(
        "a_return_reading_the_item_of_a_python_loop_nested_in_a_graph_loop",
        seeded(ExitSides),
        (torch.tensor([4.0, 0, 0, 0, 0, 0, 0, 6]), torch.zeros(8)),
        [
            (torch.tensor([4.0, 0, 0, 0, 0, 0, 0, 6]), torch.zeros(8)),  # both sides, by distance
            (torch.tensor([3.0, 0, 0, 0, 0, 2]), torch.tensor([0.1, 0.2, 0.5, 0.6, 0.9, 0.95])),  # one smoked
            (torch.tensor([2.0, 0, 0]), torch.tensor([0.95, 0.4, 0.2])),  # the only exit smoked: None
        ],
        ({0: torch.export.Dim("zones", min=2, max=32)}, {0: torch.export.Dim("zones", min=2, max=32)}),
        constructs=("for->while_loop",),
    ),
]
