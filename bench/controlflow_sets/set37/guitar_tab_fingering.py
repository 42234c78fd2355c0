"""Melody-to-guitar-tab fingering planner.

For each note of a monophonic melody (MIDI pitch, 0 = rest) pick the string and
fret, keeping the fretting hand in a 4-fret box: the cheapest position is the
one closest to the current hand position and the previous string, open strings
are cheap.  Notes outside the instrument's range are transposed by octaves.
When the hand would have to jump too far during a fast passage, the passage is
flagged unplayable and planning stops.  A learned model rates the difficulty of
the resulting tab.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class FingeringPlanner(nn.Module):
    def __init__(self, max_fret=15, box=3, max_jump=7):
        super().__init__()
        self.register_buffer("open_strings", torch.tensor([40.0, 45.0, 50.0, 55.0, 59.0, 64.0]))  # E A D G B E
        self.register_buffer("string_ids", torch.arange(6, dtype=torch.float32))
        self.max_fret = max_fret
        self.box = box
        self.max_jump = max_jump
        self.fast_beats = 0.3
        self.difficulty = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))

    def stretch_cost(self, frets, hand):
        d = frets - hand
        outside = (d < 0) | (d > self.box)
        return d.abs() + 2.0 * outside.float()

    def position_cost(self, frets, hand, prev_string):
        playable = (frets >= 0) & (frets <= self.max_fret)
        fretted = self.stretch_cost(frets, hand)
        cost = torch.where(frets == 0, torch.full_like(fretted, 0.5), fretted)
        cost = cost + 0.1 * (self.string_ids - prev_string).abs() + 0.01 * self.string_ids
        return torch.where(playable, cost, torch.full_like(cost, 1e4))

    def forward(self, midi, beats):
        hand = torch.ones(())                 # index finger on fret 1
        prev_string = torch.full((), 2.0)
        shifts = torch.zeros(())
        too_fast = torch.tensor(False)
        rows = []
        for i in range(midi.shape[0]):
            p = midi[i]
            if p <= 0:
                continue                      # rest
            while p > self.open_strings[-1] + self.max_fret:
                p = p - 12
            while p < self.open_strings[0]:
                p = p + 12
            frets = p - self.open_strings
            s = self.position_cost(frets, hand, prev_string).argmin()
            f = frets[s]
            if f > 0 and (f < hand or f > hand + self.box):
                new_hand = f if f < hand else f - self.box
                if (new_hand - hand).abs() > self.max_jump and beats[i] < self.fast_beats:
                    too_fast = torch.tensor(True)
                    break
                hand = new_hand
                shifts = shifts + 1
            prev_string = self.string_ids[s]
            rows.append(torch.stack([midi.new_tensor(float(i)), self.string_ids[s], f, hand]))
        if not rows:
            return torch.zeros(0, 4), torch.zeros(()), too_fast
        tab = torch.stack(rows)
        spread = (tab[:, 1] - tab[:, 1].mean()).abs().mean()
        feats = torch.stack([shifts / len(rows), tab[:, 2].mean() / 12.0, spread, beats.mean()])
        return tab, torch.sigmoid(self.difficulty(feats))[0], too_fast


def model():
    torch.manual_seed(29)
    return FingeringPlanner().eval()


def example_inputs():
    # "Ode to Joy" fragment in C with a rest
    midi = torch.tensor([64.0, 64.0, 65.0, 67.0, 67.0, 65.0, 64.0, 62.0, 0.0, 60.0, 60.0, 62.0, 64.0])
    beats = torch.full((13,), 0.5)
    return midi, beats


def dynamic_shapes():
    n = Dim("notes", min=2, max=64)
    return {0: n}, {0: n}


def verify_inputs():
    return [
        example_inputs(),                                                       # open strings + small box, one rest
        (torch.tensor([84.0, 100.0, 76.0, 81.0]), torch.tensor([1.0, 1.0, 0.5, 0.5])),   # above range: transposed down 1-2 octaves
        (torch.tensor([33.0, 20.0, 41.0]), torch.tensor([1.0, 1.0, 1.0])),      # below range: transposed up 1-2 octaves
        (torch.tensor([45.0, 47.0, 48.0, 69.0, 74.0, 72.0, 70.0, 53.0]),
         torch.full((8,), 1.0)),                                                # slow: hand shifts up then back down
        (torch.tensor([47.0, 48.0, 76.0, 77.0]), torch.tensor([0.25, 0.25, 0.25, 0.25])),  # fast 12-fret jump -> unplayable, break
        (torch.tensor([0.0, 0.0, 0.0]), torch.tensor([1.0, 1.0, 2.0])),         # only rests -> empty tab
    ]
