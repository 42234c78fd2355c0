"""Room acoustics: reverberation time (RT60) from a measured impulse response.

Classic Schroeder backward integration.  The decay is measured from -5 dB to
-35 dB (T30) when the capture has enough dynamic range, otherwise from -5 dB
to -25 dB (T20) with a lower confidence, and not at all when the noise floor
is too high.  Short captures get a truncation correction and a small learned
refinement calibrated against reference measurements.
"""
import torch
import torch.nn as nn


def schroeder_db(ir):
    """Energy decay curve in dB (0 dB at the start)."""
    energy = ir.pow(2)
    edc = torch.flip(torch.cumsum(torch.flip(energy, [0]), 0), [0])
    return 10.0 * torch.log10(edc / edc[0] + 1e-12)


def first_crossing(edc_db, level_db):
    """Index of the first sample where the decay curve is below level_db, or None."""
    below = edc_db < level_db
    if not below.any():
        return None
    return torch.nonzero(below)[0, 0]


class RT60Estimator(nn.Module):
    def __init__(self, sample_rate=8000):
        super().__init__()
        self.sr = sample_rate
        self.refine = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, ir):
        n = ir.shape[0]
        peak = ir.abs().max()
        if peak < 1e-4:
            # nothing recorded (muted microphone / unplugged cable)
            return torch.zeros(()), torch.zeros(())
        # start at the direct sound: first sample within 20 dB of the peak
        onset = torch.nonzero(ir.abs() > 0.1 * peak)[0, 0]
        edc = schroeder_db(ir[onset:])
        # the end of a Schroeder curve collapses towards -inf: ignore the last 10 %
        edc = edc[: int(edc.shape[0] * 0.9)]

        t5 = first_crossing(edc, -5.0)
        t35 = first_crossing(edc, -35.0)
        if t35 is not None:
            span_db, t_end, confidence = 30.0, t35, 1.0
        else:
            t25 = first_crossing(edc, -25.0)
            if t25 is None:
                # less than 25 dB above the noise floor: not measurable
                return torch.zeros(()), torch.zeros(())
            span_db, t_end, confidence = 20.0, t25, 0.6
        rt60 = (t_end - t5).float() / self.sr * (60.0 / span_db)
        if n < self.sr // 2:
            # captures shorter than 0.5 s cut the tail off: known low bias
            rt60 = rt60 * 1.08
        feats = torch.stack([torch.log(rt60), edc[-1] / 60.0, torch.tensor(confidence)])
        rt60 = rt60 * (1.0 + 0.05 * torch.tanh(self.refine(feats)).squeeze())
        return rt60, torch.tensor(confidence)


def model():
    torch.manual_seed(11)
    return RT60Estimator().eval()


def _make_ir(n, rt60, floor, seed, predelay=40, sr=8000):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n - predelay, dtype=torch.float32) / sr
    decay = torch.randn(n - predelay, generator=g) * 10.0 ** (-3.0 * t / rt60)
    ir = torch.cat([torch.zeros(predelay), decay]) + floor * torch.randn(n, generator=g)
    return (ir,)


def example_inputs():
    return _make_ir(4000, 0.3, 1e-4, 0)


def dynamic_shapes():
    return ({0: torch.export.Dim("samples", min=64, max=16000)},)


def verify_inputs():
    return [
        # 0.5 s capture, clean: T30 path, no short-capture correction
        example_inputs(),
        # 0.15 s capture of a dry room: T30 path, short-capture correction
        _make_ir(1200, 0.12, 1e-4, 1),
        # live room with a noisy floor: only 25 dB of decay -> T20 path
        _make_ir(6000, 0.5, 0.03, 2),
        # very noisy capture: not even 25 dB -> early return
        _make_ir(3000, 0.4, 0.25, 3),
        # silence
        (torch.zeros(500),),
    ]
