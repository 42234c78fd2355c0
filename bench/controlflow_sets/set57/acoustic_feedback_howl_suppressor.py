"""Automatic feedback (howl) suppressor for a live-sound mixing console.

Works on a block of STFT magnitude frames from a vocal mic channel.  Bins
whose long-term level sticks far above the spectral average and which stay
the dominant local peak frame after frame are feedback, not singing: each
such bin gets a notch filter, up to a fixed number of notches per channel.
"""
import torch
import torch.nn as nn


def notch_curve(n_bins, center, depth_db, width_bins):
    """Gain curve (linear) of a notch at `center` bins with the given depth."""
    if depth_db > 12.0:
        # deep notches are made wider so they survive slight pitch drift
        width_bins = width_bins * 1.5
    k = torch.arange(n_bins, dtype=torch.float32)
    shape = torch.exp(-0.5 * ((k - center) / width_bins) ** 2)
    return 10.0 ** (-depth_db * shape / 20.0)


class PeakPersistence(nn.Module):
    def __init__(self, half_width=3, recent_frames=64):
        super().__init__()
        self.half_width = half_width
        self.recent_frames = recent_frames

    def forward(self, log_spec, b):
        # fraction of (recent) frames in which bin b is the local maximum
        if log_spec.shape[0] > self.recent_frames:
            log_spec = log_spec[-self.recent_frames:]
        lo = max(b - self.half_width, 0)
        hi = min(b + self.half_width + 1, log_spec.shape[1])
        local_max = log_spec[:, lo:hi].max(dim=1).values
        return (log_spec[:, b] >= local_max).float().mean()


class HowlSuppressor(nn.Module):
    def __init__(self, n_bins=129, max_notches=4, papr_db=15.0, min_persistence=0.6, max_depth_db=18.0):
        super().__init__()
        self.max_notches = max_notches
        self.papr_db = papr_db
        self.min_persistence = min_persistence
        self.max_depth_db = max_depth_db
        self.min_frames = 8
        # per-bin threshold trim learned from recordings of music vs feedback
        self.threshold_trim = nn.Parameter(0.5 * torch.randn(n_bins))
        self.persistence = PeakPersistence()

    def forward(self, spec):
        # spec: (n_frames, n_bins) STFT magnitudes
        n_bins = spec.shape[1]
        gains = torch.ones(n_bins)
        n_notches = torch.zeros((), dtype=torch.long)
        if spec.shape[0] < self.min_frames:
            return gains, n_notches

        log_spec = 20.0 * torch.log10(spec + 1e-6)
        avg = log_spec.mean(dim=0)
        papr = avg - avg.mean() - self.threshold_trim
        top_papr, top_bins = torch.topk(papr, self.max_notches)
        for i in range(self.max_notches):
            if top_papr[i] < self.papr_db:
                break
            b = int(top_bins[i])
            if self.persistence(log_spec, b) < self.min_persistence:
                continue
            depth = torch.clamp(top_papr[i] - self.papr_db + 6.0, max=self.max_depth_db)
            gains = gains * notch_curve(n_bins, float(b), depth, 1.0)
            n_notches = n_notches + 1
        return gains, n_notches


def model():
    torch.manual_seed(5704)
    return HowlSuppressor().eval()


N_FRAMES = torch.export.Dim("n_frames", min=2, max=256)


def _spec(n, seed, howls=(), transient=None):
    """Music-like noisy spectrum, plus steady howl tones and an optional short burst."""
    g = torch.Generator().manual_seed(seed)
    s = 0.05 + 0.05 * torch.rand(n, 129, generator=g)
    s[:, :20] *= 3.0
    for b, level in howls:
        s[:, b] += level
    if transient is not None:
        b, level = transient
        s[: max(n // 3, 1), b] += level
    return s


def example_inputs():
    # one steady howl at bin 40 -> one notch
    return (_spec(100, 1, howls=[(40, 4.0)]),)


def dynamic_shapes():
    return ({0: N_FRAMES},)


def verify_inputs():
    return [
        # 100 frames (>64, recent-window crop), one howl -> notch then break on the next candidate
        example_inputs(),
        # 2 frames: too few to judge -> early return with unity gains
        (_spec(2, 2, howls=[(40, 4.0)]),),
        # 256 frames, strong howl (deep, widened notch) + loud short burst (not persistent -> continue)
        (_spec(256, 3, howls=[(70, 40.0), (95, 3.0)], transient=(30, 4000.0)),),
        # 8 frames, music only -> first candidate below threshold, break at once
        (_spec(8, 4),),
        # 12 frames (<=64, no crop), four howls -> all four notch slots used, loop runs out
        (_spec(12, 5, howls=[(25, 3.0), (50, 3.0), (80, 3.0), (110, 3.0)]),),
        # 40 frames, a faint ring just over the threshold -> shallow notch, normal width
        (_spec(40, 6, howls=[(60, 0.6)]),),
    ]
