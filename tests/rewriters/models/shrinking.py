"""`while` loops whose carried tensors get shorter each iteration (merging neighbours, as a BPE
tokenizer does; a spectrogram pooled along both axes level by level): carried as buffers of their
size before the loop and their current lengths."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded

ITEMS = torch.export.Dim("items", min=2, max=64)
BINS = torch.export.Dim("bins", min=2, max=96)
FRAMES = torch.export.Dim("frames", min=2, max=96)
NONE = 1 << 20


def pair_costs(values):
    if values.shape[0] < 2:
        return torch.full((1,), NONE, dtype=torch.long)
    return values[:-1] + values[1:]


class MergeCheapestPairs(nn.Module):
    """Merge the cheapest adjacent pair while one costs under 10, at most 5 times; the merged
    values padded back to the input's length with -1."""

    def forward(self, values):
        n = values.shape[0]
        costs = pair_costs(values)
        merges = 0
        while bool((costs < 10).any()):
            if merges >= 5:
                break
            p = int(torch.argmin(costs * 64 + torch.arange(costs.shape[0])))
            values = torch.cat([values[:p], (values[p] + values[p + 1]).view(1), values[p + 2 :]])
            merges += 1
            costs = pair_costs(values)
        return torch.cat([values, torch.full((n - values.shape[0],), -1, dtype=torch.long)])


class SpectralPyramid(nn.Module):
    """Per-level band energies of a spectrogram halved along frequency and time while its time
    axis keeps at least 6 frames, and how many levels were taken; the coarsest map's mean too."""

    def __init__(self):
        super().__init__()
        self.mix = nn.Conv2d(2, 4, 3, padding=1)

    def forward(self, spec):
        x = torch.tanh(self.mix(spec))
        energies = []
        while x.shape[-1] >= 6:
            energies.append((x * x).mean(dim=(2, 3)))
            x = torch.nn.functional.avg_pool2d(x, 2)
        coarse = x.mean(dim=(1, 2, 3))
        if not energies:
            return torch.zeros(spec.shape[0], 4), coarse, torch.zeros((), dtype=torch.long)
        return torch.stack(energies, 1).sum(1), coarse, torch.tensor(len(energies))


def _spec(seed, batch, bins, frames):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(batch, 2, bins, frames, generator=g),)


def _values(*v):
    return (torch.tensor(v, dtype=torch.long),)


CASES = [
    Case(
        "while_loop_whose_value_gets_one_entry_shorter_per_iteration",
        seeded(MergeCheapestPairs),
        _values(4, 1, 9, 2, 3, 20, 1, 1),
        [
            _values(30, 40, 50),  # nothing to merge: 0 iterations
            _values(1, 2, 3),  # merges down to one value
            _values(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1),  # stops after 5 merges
            _values(8, 12),
        ],
        ({0: ITEMS},),
    ),
    Case(
        "while_loop_whose_value_gets_smaller_along_two_dims",
        seeded(SpectralPyramid),
        _spec(0, 2, 24, 30),
        [
            _spec(1, 2, 8, 4),  # too short: no level
            _spec(2, 2, 12, 7),  # one level
            _spec(3, 2, 40, 96),  # five levels
            _spec(4, 2, 64, 13),  # two levels, tall
        ],
        ({2: BINS, 3: FRAMES},),
        constructs=("while->while_loop",),
    ),
]
