"""Polyphonic synthesizer voice allocation with voice stealing.

Processes a stream of MIDI note events for a 4-voice synth: a note-on
retriggers the voice already playing that pitch, else takes a free voice,
else steals one (the quietest decaying voice if any is nearly silent,
otherwise the oldest).  Note-offs (including note-on with velocity 0) free
the voice holding that pitch; orphan note-offs are ignored.  A small learned
velocity curve maps MIDI velocity to voice gain, which decays every event.

KIND X.  Constructs: 1 (if on tensor predicates, ternary), 2 (slot / released
assigned only in some branches with defaults from before), 3 (and on tensor
predicates), 5 (for over the dynamic number of events, append + torch.stack),
6 (break when a voice is found), 7 (helper with its own branch, velocity
curve submodule), 9 (for over the static voice count, config values).
"""
import torch
import torch.nn as nn
from torch.export import Dim

KIND = "X"
CONSTRUCTS = (1, 2, 3, 5, 6, 7, 9)


class VelocityCurve(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(1, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, velocity):
        return torch.sigmoid(self.net((velocity / 127.0).view(1))).view(())


class SynthVoiceAllocator(nn.Module):
    def __init__(self, n_voices=4, decay=0.8, quiet=0.05):
        super().__init__()
        self.n_voices = n_voices
        self.decay = decay
        self.quiet = quiet
        self.velocity_curve = VelocityCurve()

    def _steal(self, age, gain):
        if (gain < self.quiet).any():
            return int(torch.argmin(gain))  # a voice that is nearly inaudible anyway
        return int(torch.argmax(age))       # otherwise the oldest note

    def forward(self, events):
        # events: (E, 3) rows of [midi pitch, velocity, 1 = note-on / 0 = note-off]
        pitch = torch.full((self.n_voices,), -1.0)
        age = torch.zeros(self.n_voices)
        gain = torch.zeros(self.n_voices)
        stolen = torch.zeros(())
        assigned = []
        for e in range(events.shape[0]):
            p, vel, on = events[e, 0], events[e, 1], events[e, 2]
            age = age + 1.0
            gain = gain * self.decay
            if on > 0.5 and vel > 0:
                slot = -1
                for v in range(self.n_voices):
                    if pitch[v] == p:
                        slot = v  # retrigger the same key
                        break
                if slot < 0:
                    for v in range(self.n_voices):
                        if pitch[v] < 0:
                            slot = v
                            break
                if slot < 0:
                    slot = self._steal(age, gain)
                    stolen = stolen + 1.0
                pitch[slot] = p
                age[slot] = 0.0
                gain[slot] = self.velocity_curve(vel)
                assigned.append(torch.tensor(slot))
            else:
                released = torch.tensor(-1)
                for v in range(self.n_voices):
                    if pitch[v] == p:
                        pitch[v] = -1.0
                        gain[v] = 0.0
                        released = torch.tensor(v)
                        break
                assigned.append(released)
        return torch.stack(assigned), pitch, gain, stolen


def model():
    torch.manual_seed(61012)
    return SynthVoiceAllocator().eval()


def make_events(rows):
    return (torch.tensor(rows, dtype=torch.float32),)


def example_inputs():
    # C major chord, release E, play A (takes the free voice), release everything
    return make_events([[60, 100, 1], [64, 90, 1], [67, 80, 1], [64, 0, 0], [69, 70, 1],
                        [60, 0, 0], [67, 0, 0], [69, 0, 0]])


def dynamic_shapes():
    return ({0: Dim("events", min=2, max=512)},)


def verify_inputs():
    return [
        # free voices only, note-offs found after scanning some voices
        example_inputs(),
        # five fast notes on 4 voices, none quiet yet (gain decays 0.8/event) -> steal oldest
        make_events([[60, 120, 1], [62, 120, 1], [64, 120, 1], [65, 120, 1], [67, 120, 1]]),
        # four held notes, long run of orphan note-offs lets them decay below 0.05,
        # then a fifth note steals the quietest; velocity-0 note-on acts as note-off
        make_events([[48, 30, 1], [52, 127, 1], [55, 60, 1], [59, 90, 1]]
                    + [[30, 0, 0]] * 12 + [[72, 100, 1], [52, 0, 1]]),
        # retrigger: same key pressed twice without release reuses its voice
        make_events([[60, 80, 1], [60, 110, 1], [60, 0, 0]]),
    ]
