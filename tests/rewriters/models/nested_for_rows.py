"""Lists an outer graph loop carries that only a `for` loop nested in it appends to, with a trip
count known only when the model runs (``range(5 + spares)``, spares from ``.item()``), a `continue`
and a `break` inside: the outer loop runs twice (counted_rows.counted_then_filled), first counting
the rows, then filling a buffer of that size; the nested loop writes its rows into the list itself
(counted_rows.rows_for), where its `continue` flags say so (FlagList). A nested `while` whose
append sits under a tensor `if` (a flag per iteration, passes/continues.py) writes its rows the same
way (counted_rows.rows_while)."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded


class ShotTimes(nn.Module):
    """Per stage up to 5 + spares shots: a miss costs time and is not recorded, a hit records the
    time it happened; five hits end the stage early, and the race stops at a cut-off."""

    def __init__(self):
        super().__init__()
        self.loop_time = nn.Linear(2, 1)

    def forward(self, shots, legs, spares_in):
        spares = int(spares_in[0].item())
        elapsed = torch.zeros(())
        hit_times = []
        missed = []
        stopped = False
        for stage in range(shots.shape[0]):
            elapsed = elapsed + legs[stage]
            left = 5
            for k in range(5 + spares):
                if left == 0:
                    break
                elapsed = elapsed + 3.0
                if shots[stage, k] > 0.5:
                    continue  # a miss
                left -= 1
                hit_times.append(elapsed)
                if elapsed > 60.0:
                    stopped = True
                    break
            missed.append(torch.tensor(left))
            if stopped:
                break
            penalty = self.loop_time(torch.stack([legs[stage], torch.tensor(float(left))])).squeeze(0)
            elapsed = elapsed + left * (10.0 + torch.tanh(penalty))
        last = hit_times[-1] if hit_times else torch.zeros(())
        mean_gap = torch.zeros(())
        if len(hit_times) > 1:
            times = torch.stack(hit_times)
            mean_gap = (times[1:] - times[:-1]).mean()
        return torch.stack(missed).sum(), elapsed, last, mean_gap, torch.tensor(len(hit_times))


class ProbeReadings(nn.Module):
    """Per row a nested loop over a run-time number of probes, every probe recorded until one reads
    over a limit (no `continue`: a row appended on every iteration that runs); a saturated row ends
    the scan. (Without the outer `break` the nested loop's rows are chunks the outer loop stacks,
    passes/nested_appends.py.)"""

    def forward(self, x, probes_in):
        probes = int(probes_in[0].item())
        readings = []
        for i in range(x.shape[0]):
            for j in range(probes):
                value = x[i, j] * 2.0
                readings.append(value)
                if value > 1.5:
                    break
            if x[i].sum() > 4.2:
                break  # a saturated row ends the scan
        if not readings:
            return torch.zeros(()), torch.tensor(0)
        return torch.stack(readings).sum(), torch.tensor(len(readings))


class PipelineFinish(nn.Module):
    """Batches pumped through a line hour by hour (a run-time number of hours with a `break` once
    all are through); a nested `while` moves volume within the hour, recording when a batch ends."""

    def forward(self, vols, rate_in):
        rate = rate_in[0].abs().clamp(min=0.5)  # (inputs the check flips stay meaningful)
        vols = vols.abs() + 0.1
        n = vols.shape[0]
        hours = int(torch.ceil(vols.sum() / rate).item()) + 1
        idx = 0
        remaining = vols[0]
        finish = []
        for h in range(hours):
            capacity = rate.clone()
            while capacity > 0 and idx < n:
                take = torch.minimum(capacity, remaining)
                capacity = capacity - take
                remaining = remaining - take
                if remaining <= 0:
                    finish.append(h + 1 - capacity / rate)
                    idx += 1
                    if idx < n:
                        remaining = vols[idx]
            if idx >= n:
                break
        done = torch.stack(finish)
        return done, torch.cat([done[:1], done[1:] - done[:-1]])


class RoadLengths(nn.Module):
    """Per seed hit, follows a road layer by layer (a loop over a dynamic size, nested in the loop
    over seeds) until no hit is close enough (a tensor `break`); the layers' picks are a list of
    the seed's own, appended after the `break` test."""

    def forward(self, hits):
        n_layers, n_hits = hits.shape
        lengths = []
        for seed in range(n_hits):
            picked = [hits[0, seed]]
            last = hits[0, seed]
            for layer in range(1, n_layers):
                j = torch.argmin((hits[layer] - last).abs())
                if (hits[layer, j] - last).abs() > 0.5:
                    break  # road lost
                picked.append(hits[layer, j])
                last = hits[layer, j]
            lengths.append(torch.stack(picked).sum() * 0.0 + len(picked))
        return torch.stack(lengths)


class SlotRequests(nn.Module):
    """Requests (piece, peer) for the pieces still wanted, rarest first. With few pieces left, every
    holder is asked (a helper whose nested loops append under `continue` and a tensor `if`, behind a
    tensor `if` that returns); else each piece goes to the first holder with a free slot (a search
    loop appending once and breaking, its `else` counting the misses), at most 6 requests."""

    def everyone(self, has, wanted):
        requests = []
        for k in range(has.shape[1]):
            if not wanted[k]:
                continue
            for p in range(has.shape[0]):
                if has[p, k] > 0:
                    requests.append(torch.tensor([k, p]))
        return requests

    def forward(self, has, mine):
        n_peers = has.shape[0]
        wanted = (mine == 0) & (has.sum(0) > 0)
        missed = torch.zeros((), dtype=torch.long)
        if wanted.any() and wanted.sum() <= 2:
            return torch.stack(self.everyone(has, wanted)), missed
        score = has.sum(0) * has.shape[1] + torch.arange(has.shape[1], dtype=torch.float32)
        score = torch.where(wanted, score, torch.full_like(score, float("inf")))
        slots = torch.ones(n_peers, dtype=torch.long)
        requests = []
        while wanted.any() and len(requests) < 6:
            k = int(torch.argmin(score))
            for p in range(n_peers):
                if slots[p] <= 0 or has[p, k] == 0:
                    continue
                requests.append(torch.stack([torch.tensor(k), torch.tensor(p)]))
                slots[p] -= 1
                break
            else:
                missed += 1
            wanted[k] = False
            score[k] = float("inf")
        if not requests:
            return torch.zeros(0, 2, dtype=torch.long), missed
        return torch.stack(requests), missed


def _race(stages, accuracy, spares, seed):
    g = torch.Generator().manual_seed(seed)
    shots = torch.rand(stages, 8, generator=g) / accuracy
    return shots, 5.0 + torch.rand(stages, generator=g), torch.tensor([spares])


def _grid(rows, probes, seed, scale=1.0):
    g = torch.Generator().manual_seed(seed)
    return torch.rand(rows, 6, generator=g) * scale, torch.tensor([probes])


STAGES = torch.export.Dim("stages", min=2, max=8)
ROWS = torch.export.Dim("rows", min=1, max=8)


def _swarm(peers, pieces, seed, have=0.5, mine=0.3):
    g = torch.Generator().manual_seed(seed)
    has = (torch.rand(peers, pieces, generator=g) < have).float()
    return has, (torch.rand(pieces, generator=g) < mine).float()


CASES = [
    Case(
        "a_list_appended_in_a_nested_for_with_continue_and_break_over_a_run_time_count",
        seeded(ShotTimes),
        _race(3, 1.5, 0, 1),
        [
            _race(2, 4.0, 3, 2),  # accurate: five hits end each stage early
            _race(8, 1.2, 3, 3),  # spares used; the cut-off stops the race mid-stage
            _race(3, 0.5, 0, 4),  # poor shooting: few hits
            _race(3, 0.02, 0, 5),  # nothing hit: no rows at all
        ],
        ({0: STAGES}, {0: STAGES}, None),
        constructs=("for->while_loop",),
    ),
    Case(
        "a_list_appended_on_every_iteration_of_a_nested_for_over_a_run_time_count_with_a_break",
        seeded(ProbeReadings),
        _grid(3, 4, 1),
        [
            _grid(1, 2, 2),
            _grid(8, 6, 3),  # breaks on large readings
            _grid(4, 0, 4),  # no probes: no rows
            _grid(5, 3, 5, scale=0.5),  # no break
            _grid(6, 6, 6, scale=1.4),  # the outer break
        ],
        ({0: ROWS}, None),
        constructs=("for->while_loop",),
    ),
    Case(
        "a_list_appended_under_a_tensor_if_in_a_while_nested_in_a_for_over_a_run_time_count",
        seeded(PipelineFinish),
        (torch.tensor([3.0, 1.5, 4.0, 2.0]), torch.tensor([2.0])),
        [
            (torch.tensor([0.5, 0.5]), torch.tensor([2.0])),  # both batches in the first hour
            (torch.tensor([5.0, 0.25, 3.5, 0.75, 2.0, 6.0, 1.0]), torch.tensor([1.5])),
            (torch.full((16,), 0.75), torch.tensor([4.0])),  # max size
        ],
        ({0: torch.export.Dim("n", min=2, max=16)}, None),
        constructs=("for->while_loop", "while->while_loop"),
    ),
    Case(
        "a_list_of_an_outer_iteration_appended_after_a_tensor_break_in_a_loop_over_a_size",
        seeded(RoadLengths),
        (torch.tensor([[0.0, 1.0, 2.0], [0.2, 1.9, 3.0], [0.3, 2.5, 5.0], [0.1, 2.6, 9.0]]),),
        [
            (torch.tensor([[0.0, 1.0], [0.2, 1.9], [0.3, 2.8]]),),  # min sizes
            (torch.arange(24, dtype=torch.float32).reshape(4, 6) * 0.15,),  # every road goes through
            (torch.arange(24, dtype=torch.float32).reshape(6, 4) * 0.4,),  # every road is lost at once
        ],
        ({0: torch.export.Dim("layers", min=3, max=8), 1: torch.export.Dim("hits", min=2, max=8)},),
        constructs=("for->while_loop",),
    ),
    Case(
        "a_search_loop_appending_once_in_a_while_and_nested_appends_in_a_helper_behind_a_return",
        seeded(SlotRequests),
        _swarm(4, 10, 1),
        [
            _swarm(2, 2, 2, have=1.0, mine=0.0),  # min sizes: two pieces left, everyone asked
            _swarm(6, 12, 3, have=0.2),  # few holders: misses
            (torch.ones(3, 5), torch.tensor([1.0, 1.0, 0.0, 1.0, 1.0])),  # one piece left
            (torch.ones(3, 6), torch.ones(6)),  # nothing wanted: no requests
            _swarm(8, 16, 4, have=0.9, mine=0.0),  # max sizes: stops at the cap of six requests
        ],
        (
            {0: torch.export.Dim("peers", min=2, max=8), 1: torch.export.Dim("pieces", min=2, max=16)},
            {0: torch.export.Dim("pieces", min=2, max=16)},
        ),
        constructs=("for->while_loop", "while->while_loop"),
    ),
]
