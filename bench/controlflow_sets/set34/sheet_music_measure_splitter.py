"""Music engraving: split a note stream into measures and embed each measure.

Notes arrive as (MIDI pitch, duration in 16th-note ticks); pitch 0 is a rest.
The time signature is an input tensor, so the measure length is data
dependent. Zero-length (grace) notes are skipped; a note that crosses a bar
line is split into tied pieces (a note can span several measures). The last
measure is padded with a rest. Each measure is embedded by a submodule (an
all-rest measure gets a learned "tacet" embedding) for downstream
phrase/cadence analysis.

Kind X. Constructs: 1 (if on tensor comparisons), 2 (early return in the
measure encoder; variable assigned in one branch), 4 (while with a tensor
condition: remaining duration of the current note), 5 (for over the dynamic
number of notes; Python lists of tensors, stack/cat), 6 (continue on grace
notes), 7 (measure-encoder submodule with its own branch), 9 (config flag
`pad_last_measure`). Several data-dependent sizes (number of measures,
notes per measure).
"""
import torch
import torch.nn as nn


class MeasureEncoder(nn.Module):
    def __init__(self, dim=24):
        super().__init__()
        self.pitch = nn.Embedding(128, dim)
        self.dur = nn.Linear(1, dim)
        self.tacet = nn.Parameter(torch.randn(dim))
        self.mix = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.Linear(dim, dim))

    def forward(self, events, measure_len):
        # events: (K, 3) [pitch, ticks, tied-to-next]
        if (events[:, 0] == 0).all():
            return self.tacet
        weights = events[:, 1:2] / measure_len
        h = (self.pitch(events[:, 0]) + self.dur(weights)) * weights
        return self.mix(h.sum(dim=0))


class MeasureSplitter(nn.Module):
    def __init__(self, dim=24, pad_last_measure=True):
        super().__init__()
        self.pad_last_measure = pad_last_measure
        self.encoder = MeasureEncoder(dim)

    def forward(self, notes, meter):
        # notes: (N, 2) int64 [pitch, ticks]; meter: (2,) int64 [beats per bar, beat unit], e.g. [6, 8]
        measure_len = meter[0] * (16 // meter[1])
        measures, current = [], []
        fill = torch.zeros((), dtype=torch.long)
        for i in range(notes.shape[0]):
            pitch, remaining = notes[i, 0], notes[i, 1]
            if remaining <= 0:
                continue  # grace note: no metrical duration
            while remaining > 0:
                piece = torch.minimum(remaining, measure_len - fill)
                remaining = remaining - piece
                tied = (remaining > 0).long()
                current.append(torch.stack([pitch, piece, tied]))
                fill = fill + piece
                if fill == measure_len:
                    measures.append(torch.stack(current))
                    current = []
                    fill = torch.zeros((), dtype=torch.long)
        if len(current) > 0:
            if self.pad_last_measure:
                rest = torch.stack([torch.zeros((), dtype=torch.long), measure_len - fill, torch.zeros((), dtype=torch.long)])
                current.append(rest)
            measures.append(torch.stack(current))

        embeddings = torch.stack([self.encoder(m, measure_len) for m in measures])
        notes_per_measure = torch.tensor([m.shape[0] for m in measures])
        return embeddings, notes_per_measure, torch.cat(measures)


def model():
    torch.manual_seed(3415)
    return MeasureSplitter().eval()


def example_inputs():
    # 4/4: quarter quarter half | dotted half, half tied over the bar | quarter quarter half |
    #      whole rest | (grace note) quarter dotted half
    notes = torch.tensor([[60, 4], [62, 4], [64, 8], [65, 12], [67, 8], [69, 4], [71, 8],
                          [0, 16], [72, 0], [71, 4], [72, 12]])
    return (notes, torch.tensor([4, 4]))


def dynamic_shapes():
    N = torch.export.Dim("notes", min=2, max=256)
    return ({0: N}, None)


def verify_inputs():
    g = torch.Generator().manual_seed(5)
    n = 60
    rand_notes = torch.stack([torch.randint(55, 80, (n,), generator=g),
                              torch.randint(0, 9, (n,), generator=g)], dim=1)
    return [
        # 4/4 with a note tied over a bar line, a full-bar rest (tacet measure), a grace note (continue);
        # ends exactly on a bar line (no padding)
        example_inputs(),
        # 6/8 (12 ticks per bar), a whole note spanning three bars (while runs 3 times), last bar padded
        (torch.tensor([[67, 40], [69, 2], [71, 2]]), torch.tensor([6, 8])),
        # 3/4 random melody with grace notes, ties and a padded last bar
        (rand_notes, torch.tensor([3, 4])),
        # 2/4: a grace note then a single 16th -> one measure padded with a rest
        (torch.tensor([[60, 0], [64, 1]]), torch.tensor([2, 4])),
    ]
