"""Right-whale up-call detector for a moored hydrophone.

Works on a log-power spectrogram [frames, 32 bins].  Frame by frame the
strongest bin above the per-bin noise floor is tracked as a frequency contour;
short gaps are bridged, big frequency jumps or long gaps close the track.  A
closed track is reported as an up-call if it is long enough and sweeps upward,
with a learned confidence.  Frames clipped by ship noise are ignored.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class UpcallTracker(nn.Module):
    def __init__(self, n_bins=32):
        super().__init__()
        self.snr_db = 6.0
        self.clip_db = 40.0
        self.max_jump = 3          # bins per frame
        self.max_gap = 2           # frames
        self.min_frames = 4
        self.min_slope = 0.3       # bins per frame
        self.scorer = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))

    def close_track(self, track, calls):
        if len(track) < self.min_frames:
            return
        tr = torch.stack(track).to(torch.float32)          # [n, 3] frame, bin, snr
        slope = (tr[-1, 1] - tr[0, 1]) / (tr[-1, 0] - tr[0, 0])
        if slope > self.min_slope:
            feats = torch.stack([tr[-1, 0] - tr[0, 0], slope, tr[:, 2].mean() / 10.0, tr[0, 1] / 32.0])
            conf = torch.sigmoid(self.scorer(feats / 10.0))[0]
            calls.append(torch.stack([tr[0, 0], tr[-1, 0], tr[0, 1], tr[-1, 1], conf]))

    def forward(self, spec):
        floor = spec.median(dim=0).values
        snr = spec - floor
        calls, track = [], []
        gap = 0
        for t in range(spec.shape[0]):
            if spec[t].max() > self.clip_db:
                continue                                   # ship noise clipped the ADC
            b = snr[t].argmax()
            if snr[t, b] > self.snr_db:
                if track and (b - track[-1][1]).abs() > self.max_jump:
                    self.close_track(track, calls)         # another animal / harmonic
                    track = []
                track.append(torch.stack([torch.tensor(t), b, snr[t, b].round().long()]))
                gap = 0
            elif track:
                gap += 1
                if gap > self.max_gap:
                    self.close_track(track, calls)
                    track = []
                    gap = 0
        if track:
            self.close_track(track, calls)
        if not calls:
            return torch.zeros(0, 5), torch.zeros(())
        table = torch.stack(calls)
        return table, table[:, 4].max()


def model():
    torch.manual_seed(41)
    return UpcallTracker().eval()


def _gen_spec(n, seed, tones=(), clipped=()):
    """tones: (start frame, start bin, bins per frame, n frames, level dB)."""
    g = torch.Generator().manual_seed(seed)
    spec = 10.0 + 0.8 * torch.randn(n, 32, generator=g)
    for t0, b0, slope, length, level in tones:
        for k in range(length):
            b = int(round(b0 + slope * k))
            spec[t0 + k, b] += level
    for t in clipped:
        spec[t] += 35.0
    return spec


def example_inputs():
    return (_gen_spec(40, 0, tones=[(5, 8, 1.0, 8, 12.0)]),)


def dynamic_shapes():
    return ({0: Dim("frames", min=8, max=400)},)


def verify_inputs():
    return [
        example_inputs(),                                                    # one clean up-call, closed by the gap rule
        (_gen_spec(30, 1),),                                                 # silence -> no calls
        (_gen_spec(50, 2, tones=[(10, 20, -1.0, 8, 12.0), (30, 5, 0.0, 6, 12.0)]),),  # down-sweep and flat tone rejected
        (_gen_spec(60, 3, tones=[(5, 6, 1.0, 4, 12.0), (9, 10, 1.0, 2, 0.0), (11, 12, 1.0, 5, 12.0),
                                 (20, 2, 0.0, 2, 12.0)],),),                 # 2-frame dropout bridged; short blip too short
        (_gen_spec(40, 4, tones=[(3, 4, 1.0, 6, 12.0), (9, 20, 1.0, 6, 12.0)]),),      # frequency jump closes first track
        (_gen_spec(24, 5, tones=[(10, 10, 1.0, 14, 12.0)], clipped=(14, 15)),),        # clipped frames skipped, call runs to end
    ]
