"""Synth voice: ADSR envelope generator state machine driving a wavetable oscillator.

The gate signal (one value per control frame, > 0.5 = key held) drives a classic
attack / decay / sustain / release state machine.  Attack ramps linearly to full level, decay
approaches the sustain level exponentially, release decays to silence and returns to IDLE.
A new key press while releasing retriggers the attack from the current level (legato-free).
The envelope multiplies a small learned wavetable oscillator; a voice whose gate never opens
renders silence without running the state machine.
"""
import torch
import torch.nn as nn
from torch.export import Dim

IDLE, ATTACK, DECAY, SUSTAIN, RELEASE = range(5)


def attack_step(level, rate):
    level = level + rate
    if level >= 1.0:
        return torch.ones(()), DECAY
    return level, ATTACK


def decay_step(level, rate, sustain):
    level = sustain + (level - sustain) * (1.0 - rate)
    if (level - sustain).abs() < 0.01:
        return sustain, SUSTAIN
    return level, DECAY


def release_step(level, rate):
    level = level * (1.0 - rate)
    if level < 1e-3:
        return torch.zeros(()), IDLE
    return level, RELEASE


class ADSRVoice(nn.Module):
    def __init__(self, table_size=32, samples_per_frame=16):
        super().__init__()
        self.wavetable = nn.Parameter(torch.randn(table_size) * 0.3 + torch.sin(torch.linspace(0, 6.2832, table_size)))
        self.samples_per_frame = samples_per_frame

    def envelope(self, gate, params):
        attack, decay, sustain, release = params[0], params[1], params[2], params[3]
        state = IDLE
        level = torch.zeros(())
        env = []
        for t in range(gate.shape[0]):
            pressed = gate[t] > 0.5
            if pressed and (state == IDLE or state == RELEASE):
                state = ATTACK
            elif not pressed and state != IDLE:
                state = RELEASE
            if state == IDLE:
                env.append(level)
                continue
            if state == ATTACK:
                level, state = attack_step(level, attack)
            elif state == DECAY:
                level, state = decay_step(level, decay, sustain)
            elif state == SUSTAIN:
                level = sustain
            else:
                level, state = release_step(level, release)
            env.append(level)
        return torch.stack(env)

    def forward(self, gate, params, phase_inc):
        n = gate.shape[0] * self.samples_per_frame
        if not (gate > 0.5).any():
            return torch.zeros(n), torch.zeros(gate.shape[0])
        env = self.envelope(gate, params)
        size = self.wavetable.shape[0]
        pos = torch.cumsum(torch.full((n,), 1.0), 0) * phase_inc * size
        i0 = pos.floor()
        frac = pos - i0                      # linear interpolation: continuous in pos
        i0 = i0.long() % size
        wave = self.wavetable[i0] * (1.0 - frac) + self.wavetable[(i0 + 1) % size] * frac
        audio = wave * env.repeat_interleave(self.samples_per_frame)
        return audio, env


def model():
    torch.manual_seed(6517)
    return ADSRVoice().eval()


def _gate(pattern):
    """pattern: list of (value, frames)."""
    return torch.cat([torch.full((k,), float(v)) for v, k in pattern])


def example_inputs():
    # key held for 30 frames then released for 30
    return (_gate([(1, 30), (0, 30)]), torch.tensor([0.35, 0.25, 0.6, 0.2]), torch.tensor(0.0625))


def dynamic_shapes():
    return ({0: Dim("frames", min=2, max=2048)}, None, None)


def verify_inputs():
    return [
        example_inputs(),   # attack -> decay -> sustain -> release -> idle (continue on idle frames)
        (_gate([(0, 40)]), torch.tensor([0.35, 0.25, 0.6, 0.2]), torch.tensor(0.05)),   # gate never opens: silence, early return
        # quick re-press while releasing: retrigger attack from release level
        (_gate([(0, 3), (1, 8), (0, 4), (1, 20), (0, 40)]), torch.tensor([0.15, 0.3, 0.4, 0.3]), torch.tensor(0.03)),
        # short staccato note released during attack; long tail to idle
        (_gate([(1, 2), (0, 50)]), torch.tensor([0.3, 0.2, 0.5, 0.15]), torch.tensor(0.1)),
    ]
