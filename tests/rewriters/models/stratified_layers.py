"""A layered tank inside a loop over time steps (set62's solar tank, reduced): inflow replaces the
layer a search loop finds (``torch.cat([levels[:slot], mixed, levels[slot + 1 :]])``), and a mixing
pass overturns warmer layers below cooler ones (``layers[-1] = avg`` then an append, on every path,
into a list that starts with one entry). The outer graph loop carries the layers, so each must keep
their number: the found slot is told its range (passes/search_indices.py), and the mixing list
appends unguarded (passes/list_lengths.py), with no per-iteration flags to compact."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded


def _mixed(levels, tol):
    """Overturn-and-mix passes until no layer is warmer than the one above (at most three)."""
    passes = 0
    while bool((levels[1:] > levels[:-1] + tol).any()) and passes < 3:
        layers = [levels[0]]
        for k in range(1, levels.shape[0]):
            if levels[k] <= layers[-1] + tol:
                layers.append(levels[k])
                continue
            avg = 0.5 * (layers[-1] + levels[k])
            layers[-1] = avg
            layers.append(avg)
        levels = torch.stack(layers)
        passes += 1
    return levels, passes


class MixedEveryStep(nn.Module):
    """Each step scales the layers, then mixes them: the mixing list inside the step's graph loop."""

    def forward(self, levels, gains):
        total = 0
        for step in range(gains.shape[0]):
            levels, passes = _mixed(levels * gains[step], 0.05)
            total += passes
        return levels, torch.tensor(total)


class InflowAtFoundLayer(nn.Module):
    """Each step's inflow replaces the first layer it is warmer than (the bottom one if none), when
    it is warmer than the coolest layer; then the layers mix."""

    def _insert(self, levels, value):
        slot = levels.shape[0] - 1
        for k in range(levels.shape[0]):
            if value > levels[k]:
                slot = k
                break
        mixed = 0.5 * (levels[slot] + value)
        return torch.cat([levels[:slot], mixed.reshape(1), levels[slot + 1 :]])

    def forward(self, levels, inflow):
        for step in range(inflow.shape[0]):
            if inflow[step] > levels.min():
                levels = self._insert(levels, inflow[step])
            levels, _ = _mixed(levels, 0.0)
        return levels


_LAYERS = torch.export.Dim("layers", min=3, max=40)
_STEPS = torch.export.Dim("steps", min=2, max=50)

CASES = [
    Case(
        "a_list_starting_filled_and_overwritten_at_its_end_in_a_while_inside_a_graph_loop",
        seeded(MixedEveryStep),
        (torch.tensor([60.0, 55.0, 50.0, 70.0, 40.0, 35.0]), torch.tensor([1.0, 0.9, 1.1])),
        [
            (torch.tensor([60.0, 55.0, 50.0, 45.0]), torch.tensor([1.0, 1.0])),  # stable: no pass
            (torch.tensor([10.0, 20.0, 30.0, 40.0, 50.0]), torch.tensor([1.0, 1.2, 0.8])),  # budget runs out
        ],
        ({0: _LAYERS}, {0: _STEPS}),
        constructs=("for->while_loop",),
    ),
    Case(
        "an_entry_replaced_at_an_index_a_search_loop_found_inside_a_graph_loop",
        seeded(InflowAtFoundLayer),
        (torch.tensor([60.0, 50.0, 40.0, 30.0, 20.0]), torch.tensor([10.0, 45.0, 70.0])),
        [
            (torch.tensor([60.0, 50.0, 40.0]), torch.tensor([5.0, 6.0])),  # no inflow
            (torch.tensor([60.0, 50.0, 40.0, 30.0, 20.0, 10.0]), torch.tensor([25.0, 100.0, 35.0, 12.0])),
            (torch.tensor([30.0, 80.0, 20.0, 10.0]), torch.tensor([15.0, 90.0])),  # mixing first
        ],
        ({0: _LAYERS}, {0: _STEPS}),
        constructs=("for->while_loop",),
    ),
]
