"""Lists a helper's loop fills, used where a fixed list stands in when the helper finds too few:

- a spectrometer's reference lines: the peaks a helper finds (a loop over the positions of a
  nonzero, merging close peaks by replacing the last one) replace the default positions when there
  are exactly three (``if len(found) == 3: lines = found``); the same helper runs for every sample
  row in a loop, where its list starts empty inside the body torch traces.
"""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded

DEFAULT_LINES = (0.2, 0.5, 0.8)


def peaks_of(row, min_sep):
    mid = row[1:-1]
    above = (mid > row[:-2]) & (mid >= row[2:]) & (mid > 0.5)
    peaks = []
    for p in (above.nonzero().flatten() + 1).tolist():
        if peaks and p - peaks[-1] < min_sep:
            if row[p] > row[peaks[-1]]:
                peaks[-1] = p
            continue
        peaks.append(p)
    return peaks


class LineCalibration(nn.Module):
    def forward(self, spectra):
        n = spectra.shape[1]
        lines = [int(f * n) for f in DEFAULT_LINES]
        found = peaks_of(spectra[0], 3)
        if len(found) == 3:
            lines = found
        counts = []
        for s in range(1, spectra.shape[0]):
            counts.append(torch.tensor(len(peaks_of(spectra[s], 3))))
        first = torch.stack([torch.tensor(v) for v in lines])
        return first, torch.stack(counts)


def _spectra(rows: int, n: int, peaks: list, seed: int) -> tuple:
    values = 0.3 * torch.rand(rows, n, generator=torch.Generator().manual_seed(seed))
    for p in peaks:
        values[:, p] = 1.0
        values[1:, (p + 7) % n] = 0.9
    return (values,)


CASES = [
    Case(
        "a_helpers_peaks_or_default_positions_and_the_helper_in_a_loop",
        seeded(LineCalibration),
        _spectra(3, 40, [5, 6, 18, 30], 1),
        [_spectra(2, 24, [4, 12], 2), _spectra(5, 60, [10, 25, 45], 3), _spectra(4, 32, [], 4)],
        ({0: torch.export.Dim("rows", min=2, max=8), 1: torch.export.Dim("n", min=16, max=64)},),
        constructs=("for->while_loop",),
    ),
]
