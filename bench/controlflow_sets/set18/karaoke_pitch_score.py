"""Karaoke scorer: per-frame pitch estimate from a small MLP over spectral features, compared with
the reference melody; unvoiced frames and rests are skipped, long off-key stretches are penalised."""
import torch
from torch import nn

BINS = 24


class PitchScore(nn.Module):
    def __init__(self):
        super().__init__()
        self.pitch = nn.Sequential(nn.Linear(BINS, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, spec, ref):
        # spec: (T, BINS) magnitude frames; ref: (T,) int64 reference MIDI note (0 = rest)
        est = 40.0 + 12.0 * torch.tanh(self.pitch(spec).squeeze(-1)) + spec.argmax(dim=1).float()
        score = torch.zeros(())
        voiced = torch.zeros(())
        miss_run = torch.zeros((), dtype=torch.int64)
        per_frame = []
        for t in range(spec.shape[0]):
            if spec[t].sum() < 1.0 or ref[t] == 0:
                per_frame.append(torch.zeros(()))
                continue
            err = (est[t] - ref[t]).abs()
            err = torch.minimum(err, 12.0 - err % 12.0) if err > 6.0 else err
            voiced = voiced + 1
            if err < 1.0:
                s = 1.0 - err
                miss_run = torch.zeros((), dtype=torch.int64)
            else:
                s = torch.zeros(())
                miss_run = miss_run + 1
            if miss_run > 3:
                s = s - 0.5
            score = score + s
            per_frame.append(s)
        total = score / voiced.clamp_min(1.0)
        return total, torch.stack(per_frame)


def model():
    torch.manual_seed(0)
    return PitchScore().eval()


def _spec(peaks, T):
    s = 0.002 * torch.arange(BINS, dtype=torch.float32).repeat(T, 1)
    for t, p in enumerate(peaks):
        if p >= 0:
            s[t, p] = 3.0
            s[t, (p + 5) % BINS] = 1.0
    return s


def example_inputs():
    m = model()
    sp = _spec([2, 2, 4, -1, 7, 7, 9, 2], 8)
    with torch.no_grad():
        est = 40.0 + 12.0 * torch.tanh(m.pitch(sp).squeeze(-1)) + sp.argmax(dim=1).float()
    ref = torch.round(est).long() + torch.tensor([0, 0, 3, 0, 0, 0, 7, 0])
    ref[3] = 0
    return (sp, ref)


def dynamic_shapes():
    t = torch.export.Dim("frames", min=2, max=2000)
    return ({0: t}, {0: t})


def verify_inputs():
    sp = _spec([1, 1, 1, 1, 1, 1], 6)
    ref = torch.full((6,), 75)          # way off for every frame: miss run > 3
    sp2 = _spec([3, 3, 3], 3)
    ref2 = torch.tensor([0, 0, 0])  # all rests
    return [(sp, ref), (sp2, ref2)]
