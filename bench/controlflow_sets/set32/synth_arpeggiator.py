"""Arpeggiator for a hardware synth: held chord -> a sequence of note events.

Kind X. Constructs: 1, 2, 5, 6, 7, 8.
The held keys (MIDI pitches) and their velocities are sorted; chords with
more than four voices are thinned to the four highest-velocity notes.  A
hard-played chord switches the pattern from "up" to "up-down" (bounce).
The step counter walks the notes and octaves through helper functions;
ghost notes (very soft keys) leave their step silent, and the pattern
stops when it would run off the top of the keyboard.  A tiny learned
head humanises the velocities.  Output: pitches and velocities of the
emitted steps (empty when nothing sounds).
"""
import torch
import torch.nn as nn


def wrap_octave(octave, n_octaves):
    return 0 if octave >= n_octaves else octave


def advance(i, octave, direction, n_notes, n_octaves, bounce):
    i += direction
    if 0 <= i < n_notes:
        return i, octave, direction
    if not bounce:
        return 0, wrap_octave(octave + 1, n_octaves), 1
    if direction > 0:  # ran past the highest note of this octave
        if octave + 1 < n_octaves:
            return 0, octave + 1, 1
        return max(n_notes - 2, 0), octave, -1  # turn around at the top
    if octave > 0:  # ran past the lowest note: continue in the octave below
        return n_notes - 1, octave - 1, -1
    return min(1, n_notes - 1), octave, 1  # turn around at the bottom


class Arpeggiator(nn.Module):
    def __init__(self, n_octaves=2, top_note=108, ghost_velocity=20.0, max_voices=4, bounce_velocity=96.0):
        super().__init__()
        self.n_octaves, self.top_note = n_octaves, top_note
        self.ghost_velocity, self.max_voices, self.bounce_velocity = ghost_velocity, max_voices, bounce_velocity
        self.humanize = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, notes, velocities, n_steps):
        if notes.shape[0] > self.max_voices:
            keep = torch.topk(velocities, self.max_voices).indices
            notes, velocities = notes[keep], velocities[keep]
        order = torch.argsort(notes, stable=True)
        pitches, vels = notes[order], velocities[order]
        bounce = bool(velocities.mean() > self.bounce_velocity)

        out_p, out_v = [], []
        i, octave, direction = 0, 0, 1
        for s in range(int(n_steps.item())):
            if s > 0:
                i, octave, direction = advance(i, octave, direction, pitches.shape[0], self.n_octaves, bounce)
            pitch = pitches[i] + 12 * octave
            if pitch > self.top_note:
                break  # off the keyboard: end of the phrase
            if vels[i] < self.ghost_velocity:
                continue  # ghost note: the step stays silent
            accent = 1.15 if s % 4 == 0 else 1.0
            f = torch.stack([torch.tensor(s % 4 / 4.0), pitch.float() / 127.0, vels[i] / 127.0])
            v = (vels[i] * accent + 6.0 * torch.tanh(self.humanize(f)).squeeze()).clamp(1.0, 127.0)
            out_p.append(pitch)
            out_v.append(v)
        if not out_p:
            return torch.zeros(0, dtype=torch.long), torch.zeros(0)
        return torch.stack(out_p), torch.stack(out_v)


def model():
    torch.manual_seed(3223)
    return Arpeggiator().eval()


def _chord(pitches, vels, steps):
    return (torch.tensor(pitches, dtype=torch.long), torch.tensor(vels, dtype=torch.float32),
            torch.tensor([steps], dtype=torch.long))


def example_inputs():
    # C major triad, medium touch, 16 steps of "up" over two octaves
    return _chord([60, 64, 67], [80.0, 72.0, 76.0], 16)


def dynamic_shapes():
    keys = torch.export.Dim("keys", min=2, max=10)
    return ({0: keys}, {0: keys}, None)


def verify_inputs():
    return [
        example_inputs(),                                              # up pattern, octave wrap
        _chord([57, 60, 64], [110.0, 115.0, 105.0], 16),               # hard chord: bounce, turns at top and bottom
        _chord([48, 52, 55, 59, 62, 65], [90.0, 40.0, 85.0, 70.0, 100.0, 60.0], 12),  # 6 keys thinned to 4
        _chord([96, 100, 103], [70.0, 75.0, 72.0], 10),                # high chord: second octave off keyboard -> break
        _chord([60, 63, 67], [70.0, 12.0, 75.0], 8),                   # ghost note in the chord: silent steps
        _chord([60, 64], [15.0, 10.0], 6),                             # only ghost notes -> nothing sounds (empty)
        _chord([62, 65, 69], [100.0, 101.0, 99.0], 0),                 # zero steps: loop never runs (empty)
        _chord([100, 103], [120.0, 118.0], 9),                         # bounce near the top: break inside bounce
    ]
