"""Lists filled across loops: a Python loop over a module constant whose body runs a converted
loop appending to the same list, then appends once more under a tensor test; a loop over a literal
tuple whose appends a tensor `continue` may skip; a loop that overwrites the last entry it
appended; a list a branch creates, grown from a data-dependent start; a seed value dropped
with `preds[1:]` before `torch.cat`; a list of tensors a bounded tensor `while` updates entry by entry
while it appends to another; a list that starts with a Python number and grows by a loop's
tensors, then read by position; a list that starts with one entry and whose last entry a loop
overwrites before appending on every path, stacked into the value a `while` loop carries."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded

BANDS = 2


class GapRuns(nn.Module):
    """Runs of empty columns per band, (band, start, end) each: the band loop stays Python, the
    column loop is a graph loop whose appends are kept per iteration, and the run still open at the
    end of a band is appended under a tensor test."""

    def forward(self, x):
        gaps = []
        for b in range(BANDS):
            empty = x[b] < 0.2
            run, start = 0, 0
            for c in range(empty.shape[0]):
                if empty[c]:
                    if run == 0:
                        start = c
                    run += 1
                    continue
                if run >= 2:
                    gaps.append(torch.tensor([b, start, c]))
                run = 0
            if run >= 2:
                gaps.append(torch.tensor([b, start, empty.shape[0]]))
        if len(gaps) == 0:
            return torch.zeros(0, 3, dtype=torch.long)
        return torch.stack(gaps)


class OpenEvents(nn.Module):
    """Low-flow events as (start, end) rows; an event still open at the end of the recording is
    appended under two nested tensor tests (`if state == 1:` then `if n - start >= 3:`)."""

    def forward(self, flow):
        state, start = 0, 0
        events = []
        for t in range(flow.shape[0]):
            if state == 0:
                if flow[t] < 0.5:
                    state, start = 1, t
            elif flow[t] >= 0.5:
                if t - start >= 3:
                    events.append(torch.tensor([start, t]))
                state = 0
        if state == 1:
            if flow.shape[0] - start >= 3:
                events.append(torch.tensor([start, flow.shape[0]]))
        return torch.stack(events) if len(events) > 0 else torch.zeros(0, 2, dtype=torch.long)


class LaneCandidates(nn.Module):
    """Candidate lanes next to the current one (a loop over a literal tuple, which stays Python);
    lanes off the road are skipped by a tensor `continue`, so each append is kept or dropped."""

    def forward(self, x, lane, lanes):
        rows = []
        for shift in (0, -1, 1):
            target = lane + shift
            if target < 0 or target > lanes - 1:
                continue
            cost = (x - target).abs().mean()
            rows.append(torch.stack([target, cost]))
        return torch.stack(rows)


class MergedPeaks(nn.Module):
    """Local maxima above 0.5; a peak closer than 3 steps to the previous one replaces it when it is
    higher (``peaks[-1] = t`` overwrites the last entry of a list the loop appends to)."""

    def forward(self, x):
        peaks, heights = [], []
        last = -10
        for t in range(1, x.shape[0] - 1):
            if x[t] < 0.5 or x[t] < x[t - 1] or x[t] < x[t + 1]:
                continue
            if t - last < 3:
                if x[t] > heights[-1]:
                    peaks[-1] = t
                    heights[-1] = x[t]
                continue
            peaks.append(t)
            heights.append(x[t])
            last = t
        if len(peaks) == 0:
            return torch.zeros(0), torch.zeros(0)
        return torch.tensor(peaks).float(), torch.stack(heights)


class RunLengths(nn.Module):
    """Run lengths of a thresholded scan line after its quiet zone: a `while` finds the first dark
    sample (a data-dependent start), an early return when there is none, then a loop from that
    start appends each finished run to a list the branch creates (it may run 0 times)."""

    def forward(self, x):
        dark = x < 0.5
        n = dark.shape[0]
        i = 0
        while i < n and not bool(dark[i]):
            i += 1
        if i == n:
            return torch.zeros(0, dtype=torch.long)
        runs = []
        length = 1
        for j in range(i + 1, n):
            if bool(dark[j] != dark[j - 1]):
                runs.append(length)
                length = 1
            else:
                length += 1
        runs.append(length)
        return torch.tensor(runs, dtype=torch.long)


class StrideRates(nn.Module):
    """Torque rates every `w` samples from the seat point a `while` finds (a data-dependent start):
    a stepped loop appends each rate and breaks at the target; it may run 0 times."""

    def __init__(self, w: int = 3):
        super().__init__()
        self.w = w

    def forward(self, torque):
        n = torque.shape[0]
        i = 0
        while i < n and torque[i] < 1.0:
            i += 1
        rates = []
        last = i
        for j in range(i + self.w, n, self.w):
            last = j
            rates.append(torque[j] - torque[j - self.w])
            if torque[j] > 5.0:
                break
        if len(rates) == 0:
            return torch.zeros(1), torch.tensor(last)
        return torch.stack(rates), torch.tensor(last)


class RollForward(nn.Module):
    """Autoregressive rollout for `horizon` steps (a tensor, may be 0): the list starts with the
    last observation, each step reads `preds[-1]`, and the seed is dropped with `preds[1:]`."""

    def __init__(self):
        super().__init__()
        self.step = nn.Linear(4, 1)

    def forward(self, x, horizon):
        preds = [x[:, -1:]]
        for _ in range(int(horizon.item())):
            preds.append(preds[-1] + 0.1 * torch.tanh(self.step(x[:, -4:]) + preds[-1]))
        return torch.cat(preds[1:] + [x[:, :0]], dim=1)


def _lanes(n, lane, lanes, seed):
    x = 3 * torch.rand(n, generator=torch.Generator().manual_seed(seed))
    return x, torch.tensor(float(lane)), torch.tensor(float(lanes))


def _bands(*rows):
    return (torch.tensor(rows, dtype=torch.float32),)


class DrainLevels(nn.Module):
    """An order book's two price levels (a list of tensors) updated entry by entry in a `while` on
    a tensor test bounded by a step counter, each step's fill appended to another list."""

    def forward(self, book):
        levels = [book[0], book[1]]
        fills = []
        step = 0
        while levels[0].sum() > 1.0 and step < 6:
            levels[0] = levels[0] * 0.5
            levels[1] = levels[1] + 1.0
            fills.append(levels[0].sum())
            step += 1
        if len(fills) == 0:
            return torch.zeros(1), levels[0] + levels[1]
        return torch.stack(fills), levels[0] + levels[1]


class PeakColumns(nn.Module):
    """``peaks = [0]`` then each row's argmax appended by a loop over the rows, read back by position
    (``peaks[0]`` the Python 0, ``peaks[1]`` and ``peaks[-1]`` the loop's)."""

    def forward(self, x):
        peaks = [0]
        for i in range(x.shape[0]):
            peaks.append(x[i].argmax())
        return x[1, peaks[1]] + x[0, peaks[0]] + peaks[-1]


class OverturnMixing(nn.Module):
    """A layer warmer than the one above overturns and mixes with it (``layers[-1] = avg``, then an
    append): every path appends once to a list that starts with one entry, so the stacked list keeps
    the input's length, which the `while` loop carrying it needs."""

    def forward(self, temps):
        passes = 0
        while bool((temps[1:] > temps[:-1] + 0.05).any()) and passes < 4:
            layers = [temps[0]]
            for k in range(1, temps.shape[0]):
                if temps[k] <= layers[-1] + 0.05:
                    layers.append(temps[k])
                    continue
                avg = 0.5 * (layers[-1] + temps[k])
                layers[-1] = avg
                layers.append(avg)
            temps = torch.stack(layers)
            passes += 1
        return temps, torch.tensor(passes)


CASES = [
    Case(
        "gaps_appended_across_python_and_graph_loops",
        seeded(GapRuns),
        _bands([0.9, 0.1, 0.1, 0.1, 0.9, 0.1, 0.1], [0.1, 0.1, 0.9, 0.9, 0.1, 0.1, 0.1]),
        [
            _bands([0.9, 0.9, 0.9], [0.9, 0.1, 0.9]),
            _bands([0.1, 0.1, 0.9, 0.9], [0.9, 0.1, 0.1, 0.9]),
            _bands([0.1] * 9, [0.9] * 9),
        ],
        ({1: torch.export.Dim("cols", min=3, max=32)},),
        constructs=("for->scan",),
    ),
    Case(
        "open_event_appended_under_nested_tests",
        seeded(OpenEvents),
        (torch.tensor([0.9, 0.1, 0.1, 0.1, 0.1, 0.9, 0.1, 0.1, 0.1, 0.1]),),
        [
            (torch.tensor([0.9, 0.9, 0.1, 0.1]),),
            (torch.tensor([0.1, 0.1, 0.1, 0.1, 0.9, 0.9]),),
            (torch.tensor([0.9, 0.1, 0.9, 0.1, 0.1, 0.1, 0.1, 0.1]),),
        ],
        ({0: torch.export.Dim("steps", min=3, max=64)},),
    ),
    Case(
        "candidates_over_a_literal_tuple_with_continue",
        seeded(LaneCandidates),
        _lanes(6, 1, 3, 0),
        [_lanes(4, 0, 3, 1), _lanes(9, 2, 3, 2), _lanes(5, 0, 1, 3)],
        ({0: torch.export.Dim("points", min=2, max=32)}, None, None),
    ),
    Case(
        "close_peaks_overwrite_the_last_entry",
        seeded(MergedPeaks),
        (torch.tensor([0.0, 0.9, 0.1, 0.0, 0.0, 0.7, 0.2, 0.95, 0.1, 0.0, 0.6, 0.0]),),
        [
            (torch.tensor([0.0, 0.1, 0.2, 0.1, 0.0]),),
            (torch.tensor([0.0, 0.6, 0.0, 0.8, 0.0, 0.7, 0.0, 0.0, 0.0, 0.9, 0.0]),),
            (torch.tensor([0.0, 0.9, 0.0]),),
        ],
        ({0: torch.export.Dim("steps", min=3, max=64)},),
    ),
    Case(
        "runs_from_a_data_dependent_start_after_an_early_return",
        seeded(RunLengths),
        (torch.tensor([0.9, 0.9, 0.1, 0.1, 0.9, 0.1, 0.9, 0.9]),),
        [
            (torch.tensor([0.9, 0.9, 0.9, 0.9]),),
            (torch.tensor([0.9, 0.9, 0.9, 0.1]),),
            (torch.tensor([0.1, 0.9, 0.9, 0.1, 0.1, 0.1, 0.9]),),
        ],
        ({0: torch.export.Dim("samples", min=3, max=64)},),
    ),
    Case(
        "rates_every_w_samples_from_a_data_dependent_start_until_a_break",
        seeded(StrideRates),
        (torch.tensor([0.1, 0.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.5, 6.0, 7.0, 8.0, 9.0]),),
        [
            (torch.tensor([0.1, 0.2, 0.3, 0.4]),),  # never seated: the loop runs 0 times
            (torch.tensor([1.5, 1.6, 1.7, 1.8, 1.9, 2.0, 2.1]),),  # no break: runs to the end
            (torch.tensor([0.1, 0.2, 0.3, 1.2, 1.3, 1.4]),),  # seated, then too short for a step
            (torch.arange(30, dtype=torch.float32) * 0.3,),  # breaks at the target
        ],
        ({0: torch.export.Dim("samples", min=4, max=64)},),
    ),
    Case(
        "seed_value_dropped_with_a_slice_before_cat",
        seeded(RollForward),
        (torch.randn(2, 8), torch.tensor(3)),
        [(torch.randn(2, 5), torch.tensor(0)), (torch.randn(2, 12), torch.tensor(1))],
        ({1: torch.export.Dim("history", min=5, max=64)}, None),
    ),
    Case(
        "a_list_of_tensors_updated_by_entry_in_a_bounded_while_that_appends",
        seeded(DrainLevels),
        (torch.rand(2, 4) * 3,),
        [(torch.rand(2, 4) * 0.1,), (torch.rand(2, 4) * 100,)],
        None,
        constructs=("while->while_loop",),
    ),
    Case(
        "a_list_starting_with_a_number_grown_by_a_loop_then_read_by_position",
        seeded(PeakColumns),
        (torch.randn(6, 4),),
        [(torch.randn(2, 4),), (torch.randn(20, 4),)],
        ({0: torch.export.Dim("rows", min=2, max=32)},),
        constructs=("for->scan",),
    ),
    Case(
        "a_list_overwritten_at_its_end_then_appended_on_every_path_carried_by_a_while",
        seeded(OverturnMixing),
        (torch.tensor([60.0, 55.0, 50.0, 70.0, 40.0, 35.0]),),
        [
            (torch.tensor([60.0, 55.0, 50.0, 45.0]),),  # stable: no pass
            (torch.tensor([60.0, 55.0, 50.0, 70.0, 40.0, 35.0]),),  # one slug: a few passes
            (torch.tensor([10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0]),),  # the pass budget runs out
        ],
        ({0: torch.export.Dim("layers", min=3, max=40)},),
        constructs=("while->while_loop",),
    ),
]
