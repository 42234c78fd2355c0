"""Depth-of-anaesthesia index (0 = isoelectric .. 100 = awake) from a two-channel frontal
EEG segment, in the spirit of bispectral-index monitors: signal-quality check, burst
suppression ratio, beta ratio and spectral edge frequency, combined by a sub-index that
depends on the anaesthetic regime plus a small learned correction.

Kind T. Constructs: 1 (if/elif/else on tensor features), 2 (returns inside branches of the
helpers and of forward), 3 (or in the artefact test, and in the light-sedation test),
7 (feature and index helpers with their own branches), 8 (Welch averaging only when the
dynamic segment is long enough).
"""
import math

import torch
import torch.nn as nn

FS = 128.0


def band_power(psd, freqs, lo, hi):
    m = (freqs >= lo) & (freqs < hi)
    return (psd * m).sum(-1)


def spectral_edge(psd, freqs, fraction=0.95):
    c = psd.cumsum(-1) / psd.sum(-1, keepdim=True)
    idx = (c < fraction).sum(-1).clamp(max=freqs.shape[0] - 1)
    return freqs[idx]


def burst_suppression_ratio(eeg, epoch=64, level=5.0):
    n_epochs = eeg.shape[-1] // epoch
    ep = eeg[:, : n_epochs * epoch].reshape(eeg.shape[0], n_epochs, epoch)
    suppressed = (ep.abs().amax(-1) < level).all(0)        # both channels flat
    return suppressed.float().mean()


class DepthOfAnaesthesia(nn.Module):
    def __init__(self, welch_min=1024, seg=256):
        super().__init__()
        self.welch_min = welch_min
        self.seg = seg
        self.correction = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))

    def spectrum(self, eeg):
        x = eeg - eeg.mean(-1, keepdim=True)
        if x.shape[-1] >= self.welch_min:
            n = x.shape[-1] // self.seg
            segs = x[:, : n * self.seg].reshape(x.shape[0], n, self.seg)
            win = torch.hann_window(self.seg)
            psd = (torch.fft.rfft(segs * win, dim=-1).abs() ** 2).mean(1)
            freqs = torch.fft.rfftfreq(self.seg, 1.0 / FS)
        else:
            win = torch.hann_window(x.shape[-1])
            psd = torch.fft.rfft(x * win, dim=-1).abs() ** 2
            freqs = torch.fft.rfftfreq(x.shape[-1], 1.0 / FS)
        return psd.mean(0) + 1e-6, freqs

    def sub_index(self, bsr, beta_ratio, sef):
        if bsr > 0.4:
            # deep anaesthesia: burst suppression dominates the scale
            return 50.0 * (1.0 - bsr)
        elif beta_ratio > -0.5 and sef > 20.0:
            # light sedation / awake: fast activity
            return 80.0 + 5.0 * beta_ratio.clamp(-0.5, 3.0)
        else:
            # surgical range, driven by the spectral edge
            return 25.0 + 2.0 * sef.clamp(4.0, 24.0) - 10.0 * bsr

    def forward(self, eeg):
        # eeg: (2, N) microvolts at 128 Hz
        if (eeg.abs() > 250.0).any() or eeg.std() < 0.5:
            # electrode off / diathermy artefact: no index, signal quality 0
            return torch.tensor(-1.0), torch.tensor(0.0)
        bsr = burst_suppression_ratio(eeg)
        psd, freqs = self.spectrum(eeg)
        beta_ratio = torch.log10(band_power(psd, freqs, 30.0, 47.0) / band_power(psd, freqs, 11.0, 20.0))
        sef = spectral_edge(psd, freqs)
        idx = self.sub_index(bsr, beta_ratio, sef)
        feats = torch.stack([bsr, beta_ratio, sef / 30.0, torch.log10(psd.sum())])
        idx = (idx + 3.0 * torch.tanh(self.correction(feats)[0])).clamp(0.0, 100.0)
        sqi = 1.0 - (eeg.abs() > 150.0).float().mean()
        return idx, sqi


def model():
    torch.manual_seed(3909)
    return DepthOfAnaesthesia().eval()


def _make_eeg(seed, n, comps, noise=2.0, suppress=None):
    """comps: list of (freq Hz, amplitude uV); suppress: (start, stop) flat samples."""
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n) / FS
    x = noise * torch.randn(2, n, generator=g)
    for f, a in comps:
        phase = 2 * math.pi * torch.rand(2, 1, generator=g)
        x = x + a * torch.sin(2 * math.pi * f * t + phase)
    if suppress is not None:
        for lo, hi in suppress:
            x[:, lo:hi] = 0.5 * torch.randn(2, hi - lo, generator=g)
    return (x,)


def example_inputs():
    # 8 s (1024 samples, Welch path) of surgical-depth EEG: delta + 13 Hz spindles, little
    # fast activity (beta ratio <= -0.5): surgical range
    return _make_eeg(1, 1024, [(1.5, 30.0), (13.0, 25.0)], noise=1.0)


def dynamic_shapes():
    return ({1: torch.export.Dim("samples", min=256, max=4096)},)


def verify_inputs():
    ex = example_inputs()   # the example: path described in example_inputs()
    # awake patient: strong beta/gamma, 4 s segment (512 < 1024: single periodogram)
    awake = _make_eeg(2, 512, [(35.0, 12.0), (40.0, 10.0), (22.0, 6.0), (10.0, 4.0)])
    # deep: long flat stretches between bursts (bsr > 0.4), 16 s Welch
    deep = _make_eeg(3, 2048, [(2.0, 40.0)], suppress=[(0, 700), (900, 1600), (1700, 2000)])
    # some beta but a slow spectral edge (beta ratio > -0.5 but SEF <= 20): surgical range
    mixed = _make_eeg(4, 768, [(1.0, 60.0), (3.0, 30.0), (38.0, 3.0), (15.0, 2.0)], noise=0.5)
    # artefact: electrode pop of 400 uV
    (art,) = _make_eeg(5, 1024, [(10.0, 20.0)])
    art[0, 500:520] = 400.0
    # flat line (lead off): std < 0.5
    flat = (0.1 * torch.randn(2, 256, generator=torch.Generator().manual_seed(6)),)
    return [ex, awake, deep, mixed, (art,), flat]
