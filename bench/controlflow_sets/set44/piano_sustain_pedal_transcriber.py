"""Piano transcription post-processor: sustain-pedal state machine that extends note offsets.

Kind X. Constructs: 1, 2, 3, 5, 7, 8, 9.
"""
import torch
import torch.nn as nn
from torch.export import Dim

UP, HALF, DOWN = 0, 1, 2


class PedalFSM(nn.Module):
    """Hysteresis on the pedal sensor: 0..1 travel."""

    def __init__(self, down=0.7, up=0.3):
        super().__init__()
        self.down = down
        self.up = up

    def forward(self, travel, state):
        if travel > self.down:
            new = torch.tensor(DOWN)
        elif travel < self.up:
            new = torch.tensor(UP)
        elif state == UP:
            new = torch.tensor(HALF)
        else:
            new = state  # keep DOWN/HALF inside the hysteresis band
        return new


class SustainTranscriber(nn.Module):
    def __init__(self, keys=16, chunk=32, half_pedal=True):
        super().__init__()
        self.fsm = PedalFSM()
        self.chunk = chunk
        self.half_pedal = half_pedal
        self.onset = nn.Linear(keys, keys)

    def run(self, frames, pedal):
        state = torch.tensor(UP)
        sounding = torch.zeros(frames.shape[1])
        out = []
        states = []
        for t in range(frames.shape[0]):
            state = self.fsm(pedal[t], state)
            pressed = (frames[t] > 0.5).float()
            if state == DOWN:
                sounding = torch.maximum(sounding, pressed)
            elif state == HALF and self.half_pedal:
                sounding = torch.maximum(sounding * 0.5, pressed)
            else:
                sounding = pressed
            out.append(sounding)
            states.append(state)
        return torch.stack(out), torch.stack(states)

    def forward(self, frames, pedal):
        # frames: (T, 16) key activations; pedal: (T,) pedal travel
        if frames.shape[0] > self.chunk:
            # long clips: process in chunks, pedal state restarts at chunk boundaries
            outs, sts = [], []
            for s in range(0, frames.shape[0], self.chunk):
                o, st = self.run(frames[s:s + self.chunk], pedal[s:s + self.chunk])
                outs.append(o)
                sts.append(st)
            notes, states = torch.cat(outs), torch.cat(sts)
        else:
            notes, states = self.run(frames, pedal)
        vel = torch.sigmoid(self.onset(frames)) * notes
        return notes, states, vel


def model():
    torch.manual_seed(208)
    return SustainTranscriber().eval()


def _clip(T, pedal_pattern, seed):
    g = torch.Generator().manual_seed(seed)
    frames = torch.zeros(T, 16)
    for t in range(T):
        k = int(torch.randint(0, 16, (1,), generator=g))
        if t % 3 == 0:
            frames[t, k] = 0.9
    pedal = torch.tensor([pedal_pattern[t % len(pedal_pattern)] for t in range(T)])
    return frames, pedal


def example_inputs():
    # up -> half -> down -> band(keep down) -> up -> half -> band(keep half)
    return _clip(14, [0.1, 0.5, 0.9, 0.5, 0.1, 0.5, 0.6], 1)


def dynamic_shapes():
    t = Dim("frames", min=2, max=128)
    return ({0: t}, {0: t})


def verify_inputs():
    return [
        example_inputs(),                          # every FSM transition, all three sustain branches
        _clip(100, [0.9, 0.9, 0.5, 0.1], 2),       # chunked path (4 chunks, last partial)
        _clip(2, [0.95], 3),                       # minimal, pedal held down
    ]
