"""Four-part (SATB) chorale voice-leading checker for a harmony-homework tutor.

Chords are MIDI pitches (soprano, alto, tenor, bass). Each chord is checked for
voice crossing and spacing (upper voices more than an octave apart), and each
chord transition for parallel fifths / octaves between any pair of voices and
for large leaps in the inner voices. Penalties per chord are combined with a
small learned "style" score over the interval sequence (a GRU), giving the
tutor's per-chord feedback.

Kind: X.  Constructs: 1, 2, 3, 5, 6, 7, 9.
"""
import torch
import torch.nn as nn
from torch.export import Dim

VOICE_PAIRS = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]


class VoiceLeadingChecker(nn.Module):
    def __init__(self, hidden=16, check_spacing=True, max_inner_leap=7):
        super().__init__()
        self.style = nn.GRU(6, hidden, batch_first=True)
        self.style_head = nn.Linear(hidden, 1)
        self.check_spacing = check_spacing
        self.max_inner_leap = max_inner_leap

    def interval_class(self, high, low):
        return (high - low).abs() % 12

    def is_parallel_perfect(self, prev, cur, i, j):
        before = self.interval_class(prev[i], prev[j])
        after = self.interval_class(cur[i], cur[j])
        if before != after or not (after == 7 or after == 0):
            return False
        # same perfect interval twice: only a fault if both voices actually moved the same way
        motion_i = cur[i] - prev[i]
        motion_j = cur[j] - prev[j]
        return bool(motion_i != 0 and motion_i * motion_j > 0)

    def chord_penalty(self, chord):
        p = torch.zeros(())
        if (chord[:-1] < chord[1:]).any():
            p = p + 2.0  # voice crossing
        if self.check_spacing:
            gaps = chord[:2] - chord[1:3]  # soprano-alto, alto-tenor
            if (gaps > 12).any():
                p = p + 1.0
        return p

    def forward(self, chords):
        # chords: [N, 4] MIDI pitches, soprano first
        penalties = []
        n_parallels = 0
        for t in range(chords.shape[0]):
            cur = chords[t]
            p = self.chord_penalty(cur)
            if t == 0:
                penalties.append(p)
                continue
            prev = chords[t - 1]
            for i, j in VOICE_PAIRS:
                if self.is_parallel_perfect(prev, cur, i, j):
                    p = p + 5.0
                    n_parallels += 1
                    break  # one parallel per transition is enough to mark it
            leaps = (cur[1:3] - prev[1:3]).abs()
            if (leaps > self.max_inner_leap).any():
                p = p + 1.0
            penalties.append(p)
        penalties = torch.stack(penalties)

        intervals = (chords.unsqueeze(2) - chords.unsqueeze(1))[:, [0, 0, 0, 1, 1, 2], [1, 2, 3, 2, 3, 3]]
        _, h = self.style(intervals.float().unsqueeze(0) / 12.0)
        style = torch.sigmoid(self.style_head(h[-1])).squeeze()
        return penalties, torch.tensor(n_parallels), style


def model():
    torch.manual_seed(634)
    return VoiceLeadingChecker().eval()


def _chorale(rows):
    return (torch.tensor(rows),)


def example_inputs():
    # I - IV - V - I in C major, textbook voice leading
    return _chorale([[72, 67, 64, 48], [72, 69, 65, 53], [71, 67, 62, 55], [72, 67, 64, 48]])


def dynamic_shapes():
    return ({0: Dim("chords", min=2, max=64)},)


def verify_inputs():
    return [
        example_inputs(),   # clean progression: no crossing/spacing/leap faults, every pair scanned without a break
        _chorale([[72, 67, 64, 48], [74, 69, 65, 50]]),   # S and B both up a step, two octaves apart: parallel octaves
                                                          # at pair (0, 3) after a non-perfect same-interval pair -> break
        _chorale([[67, 64, 60, 48], [69, 64, 62, 50], [71, 67, 62, 55]]),  # parallel fifths soprano-tenor (2nd pair)
                                                                             # -> break; second transition clean
        _chorale([[79, 60, 57, 45], [77, 62, 59, 47]]),   # soprano-alto gap > octave (spacing) in both chords;
                                                          # tenor-bass parallel octaves found on the last pair
        _chorale([[64, 67, 60, 48], [64, 67, 60, 48], [65, 69, 60, 53]]),  # soprano below alto (crossing); repeated chord:
                                                                             # same intervals but no motion -> not parallel
        _chorale([[72, 64, 55, 48], [72, 60, 67, 48], [74, 65, 69, 50]]),  # tenor leaps an octave above the alto
                                                                             # (leap + crossing); held outer octave is
                                                                             # not parallel, then S/B move -> parallel
    ]
