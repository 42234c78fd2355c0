"""Oscillometric blood-pressure estimate from an automatic cuff deflation.

Kind X. Constructs: 1, 2, 3, 4, 5, 6, 7.
The cuff pressure (mmHg) deflates while the band-passed oscillation
signal shows one pulse per heartbeat.  Pulse peaks are picked with a
refractory period, their amplitudes form the oscillometric envelope
(smoothed by a learned 3-tap filter), MAP sits at the envelope maximum,
and systolic / diastolic pressures are found by walking outwards from
the maximum until the envelope falls below fixed ratios.  Too few beats,
or a deflation that stopped before the diastolic point, give a
"retry measurement" result.  Output: [SYS, DIA, MAP] and a status code.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def pick_beats(osc, min_gap, min_amp):
    peaks = []
    last = -min_gap
    for i in range(1, osc.shape[0] - 1):
        if i - last < min_gap:
            continue  # refractory period after a beat
        if osc[i] > osc[i - 1] and osc[i] >= osc[i + 1] and osc[i] > min_amp:
            peaks.append(i)
            last = i
    return peaks


def walk_down(env, start, ratio, step):
    """Move from start in direction step while the envelope stays above ratio * peak."""
    level = ratio * env[start]
    j = start
    while env[j] > level:
        nxt = j + step
        if nxt < 0 or nxt >= env.shape[0]:
            break  # ran off the recorded beats
        j = nxt
    return j


class OscillometricBP(nn.Module):
    def __init__(self, fs=50, sys_ratio=0.55, dia_ratio=0.75, min_beats=5):
        super().__init__()
        self.min_gap = int(0.4 * fs)  # no two beats closer than 0.4 s
        self.sys_ratio, self.dia_ratio, self.min_beats = sys_ratio, dia_ratio, min_beats
        self.smooth = nn.Conv1d(1, 1, 3, bias=False)
        with torch.no_grad():
            self.smooth.weight.copy_(torch.tensor([[[0.25, 0.5, 0.25]]]) + 0.02 * torch.rand(1, 1, 3))

    def forward(self, cuff, osc):
        peaks = pick_beats(osc, self.min_gap, 0.05)
        if len(peaks) < self.min_beats:
            return torch.zeros(3), torch.tensor(1)  # too few beats (arrhythmia / motion): retry

        idx = torch.tensor(peaks)
        amp = osc[idx]
        pres = cuff[idx]
        env = self.smooth(F.pad(amp[None, None], (1, 1), mode="replicate"))[0, 0]
        k = int(torch.argmax(env))
        map_p = pres[k]

        ks = walk_down(env, k, self.sys_ratio, -1)
        kd = walk_down(env, k, self.dia_ratio, +1)
        if kd == env.shape[0] - 1 and env[kd] > self.dia_ratio * env[k]:
            # deflation ended before the envelope dropped: diastolic not observed
            return torch.stack([pres[ks], torch.zeros(()), map_p]), torch.tensor(2)
        return torch.stack([pres[ks], pres[kd], map_p]), torch.tensor(0)


def model():
    torch.manual_seed(3218)
    return OscillometricBP().eval()


def _measurement(seed, seconds, start, stop, map_mmhg, hr=72.0, fs=50, width=25.0, amp=1.0, jitter=0.0):
    g = torch.Generator().manual_seed(seed)
    n = int(seconds * fs)
    t = torch.arange(n, dtype=torch.float32) / fs
    cuff = start + (stop - start) * t / seconds
    envelope = amp * torch.exp(-((cuff - map_mmhg) / width) ** 2)
    phase = 2 * torch.pi * hr / 60.0 * t + jitter * torch.sin(0.7 * t)
    pulse = torch.clamp(torch.sin(phase), min=0.0) ** 3
    osc = envelope * pulse + 0.002 * torch.randn(n, generator=g)
    return cuff, osc


def example_inputs():
    # normal deflation 170 -> 40 mmHg over 26 s, MAP ~ 93
    return _measurement(1, 26, 170.0, 40.0, 93.0)


def dynamic_shapes():
    n = torch.export.Dim("samples", min=16, max=4000)
    return ({0: n}, {0: n})


def verify_inputs():
    return [
        example_inputs(),                                        # full envelope: SYS walk and DIA walk both many steps
        _measurement(2, 3, 170.0, 150.0, 93.0),                  # aborted after 3 s at high pressure: no beats -> early return
        _measurement(3, 20, 170.0, 90.0, 102.5, width=25.0),     # deflation stopped early: DIA not reached
        _measurement(4, 24, 200.0, 60.0, 114.25, hr=95.0),       # hypertensive, fast heart rate
        _measurement(5, 20, 140.0, 30.0, 141.0, width=18.0),     # envelope max at the first beat: SYS walk breaks at once
        _measurement(6, 30, 180.0, 40.0, 77.0, hr=55.0, jitter=0.6),  # bradycardic, irregular beat spacing
    ]
