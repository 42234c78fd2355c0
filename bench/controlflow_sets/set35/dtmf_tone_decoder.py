"""IVR / call-centre DTMF keypad decoder: Goertzel-style tone powers per
205-sample frame (8 kHz), silence gating, row/column tone picking with
twist and purity checks, a two-frame debounce so one key press yields one
digit, and a small GRU over the decoded digits that predicts the caller's
menu intent.

Input: audio [N] (8 kHz).
Outputs: digits one-hot [K, 16] (K digits pressed), intent probabilities [4].
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

ROW_HZ = (697.0, 770.0, 852.0, 941.0)
COL_HZ = (1209.0, 1336.0, 1477.0, 1633.0)


class DTMFDecoder(nn.Module):
    def __init__(self, sr=8000, frame=205, silence=0.05, max_twist=4.0, purity=4.0):
        super().__init__()
        self.frame = frame
        self.silence = silence
        self.max_twist = max_twist
        self.purity = purity
        n = torch.arange(frame, dtype=torch.float32)
        freqs = torch.tensor(ROW_HZ + COL_HZ).unsqueeze(1)
        self.register_buffer("cos_basis", torch.cos(2 * math.pi * freqs * n / sr))
        self.register_buffer("sin_basis", torch.sin(2 * math.pi * freqs * n / sr))
        self.gru = nn.GRU(16, 24, batch_first=True)
        self.intent = nn.Linear(24, 4)

    def tone_powers(self, audio):
        if audio.shape[0] % self.frame != 0:
            audio = F.pad(audio, (0, self.frame - audio.shape[0] % self.frame))
        frames = audio.view(-1, self.frame)
        re = frames @ self.cos_basis.t()
        im = frames @ self.sin_basis.t()
        return (re * re + im * im) * (2.0 / self.frame) ** 2

    def valid_pair(self, low, high, r, c):
        lo_pk, hi_pk = low[r], high[c]
        if hi_pk > self.max_twist * lo_pk or lo_pk > self.max_twist * hi_pk:
            return False
        lo_rest = (low.sum() - lo_pk) / 3.0
        hi_rest = (high.sum() - hi_pk) / 3.0
        return bool(lo_pk > self.purity * lo_rest and hi_pk > self.purity * hi_rest)

    def forward(self, audio):
        power = self.tone_powers(audio)
        digits = []
        prev, stable = -1, 0
        for f in range(power.shape[0]):
            p = power[f]
            if p.sum() < self.silence:
                prev, stable = -1, 0
                continue
            low, high = p[:4], p[4:]
            r, c = int(low.argmax()), int(high.argmax())
            if not self.valid_pair(low, high, r, c):
                prev, stable = -1, 0
                continue
            key = 4 * r + c
            if key == prev:
                stable += 1
                if stable == 2:
                    digits.append(F.one_hot(torch.tensor(key), 16).float())
            else:
                prev, stable = key, 1

        if len(digits) == 0:
            return torch.zeros(0, 16), torch.full((4,), 0.25)
        seq = torch.stack(digits)
        _, h = self.gru(seq.unsqueeze(0))
        return seq, torch.softmax(self.intent(h[-1, 0]), dim=-1)


def model():
    torch.manual_seed(15)
    return DTMFDecoder().eval()


KEYPAD = "123A456B789C*0#D"


def _dial(keys, seed, tone_frames=3, gap_frames=2, tail=0, low_gain=1.0, high_gain=1.0):
    g = torch.Generator().manual_seed(seed)
    frame = 205
    t = torch.arange(tone_frames * frame, dtype=torch.float32) / 8000.0
    parts = [torch.zeros(gap_frames * frame)]
    for k in keys:
        if k == "-":  # strong 852 Hz burst with faint 1336 Hz crosstalk - not a key press
            parts.append(0.5 * torch.sin(2 * math.pi * 852.0 * t) + 0.1 * torch.sin(2 * math.pi * 1336.0 * t))
        elif k == "+":  # keys 1 and 4 pressed together: two row tones -> impure
            parts.append(0.5 * torch.sin(2 * math.pi * 697.0 * t) + 0.45 * torch.sin(2 * math.pi * 770.0 * t)
                         + 0.5 * torch.sin(2 * math.pi * 1209.0 * t))
        else:
            i = KEYPAD.index(k)
            lo, hi = ROW_HZ[i // 4], COL_HZ[i % 4]
            parts.append(0.5 * low_gain * torch.sin(2 * math.pi * lo * t)
                         + 0.5 * high_gain * torch.sin(2 * math.pi * hi * t))
        parts.append(torch.zeros(gap_frames * frame))
    parts.append(torch.zeros(tail))
    x = torch.cat(parts)
    return (x + 0.01 * torch.randn(x.shape[0], generator=g),)


def example_inputs():
    return _dial("12#", seed=1)


def dynamic_shapes():
    return ({0: torch.export.Dim("n_samples", min=410, max=16000)},)


def verify_inputs():
    return [
        example_inputs(),  # whole frames; three keys, each held 3 frames (debounce emits on the 2nd)
        _dial("5005*", seed=2, tail=77),  # N not a multiple of 205 -> padded; repeated key after a gap
        _dial("7-9+", seed=3),  # crosstalk burst fails twist, double key press fails purity -> rejected (continue)
        _dial("3", seed=4, high_gain=0.2),  # key with too much twist -> rejected -> no digits -> early return
        _dial("8D", seed=5, tone_frames=1, gap_frames=1),  # key presses too short for the debounce -> no digits
        _dial("0", seed=6, tone_frames=5),  # long press: third+ stable frames do not repeat the digit
    ]
