"""Adaptive LMS equalizer for a BPSK underwater acoustic modem.

rx: [N] received baseband samples (N dynamic), training: [L] known preamble
symbols (+1 / -1, L dynamic).  During the preamble the taps adapt towards the
known symbols; afterwards the equalizer runs decision-directed.  If the
decision error explodes (multipath fade) the taps are reset and the sample is
skipped.  The initial taps come from a small learned channel-prior network fed
with the preamble's received energy profile.
Returns (symbol decisions [N - delay], final taps [T], preamble MSE, resets).
"""
import torch
import torch.nn as nn
from torch.export import Dim


class LMSEqualizer(nn.Module):
    def __init__(self, n_taps=7, mu_train=0.05, mu_dd=0.01, reset_err=1.5):
        super().__init__()
        self.n_taps = n_taps
        self.mu_train = mu_train
        self.mu_dd = mu_dd
        self.reset_err = reset_err
        self.delay = n_taps // 2  # decision delay: the centre tap estimates the symbol sent `delay` samples ago
        self.prior = nn.Linear(4, n_taps)
        center = torch.zeros(n_taps)
        center[n_taps // 2] = 1.0
        self.register_buffer("center", center)

    def initial_taps(self, rx):
        head = rx[:8] if rx.shape[0] >= 8 else torch.cat([rx, torch.zeros(8 - rx.shape[0])])
        feats = torch.stack([head.abs().mean(), head.pow(2).mean(), head[:4].abs().mean(), head[4:].abs().mean()])
        return self.center + 0.05 * torch.tanh(self.prior(feats))

    def forward(self, rx, training):
        n = rx.shape[0]
        train_len = training.shape[0]
        if train_len > n:
            training = training[:n]  # burst cut short inside the preamble
            train_len = n

        w = self.initial_taps(rx)
        init = w
        buf = torch.zeros(self.n_taps)
        decisions, train_err = [], []
        resets = 0
        for i in range(n):
            buf = torch.cat([rx[i:i + 1], buf[:-1]])
            k = i - self.delay
            if k < 0:
                continue  # delay line still filling
            y = (w * buf).sum()
            if k < train_len:
                d = training[k]
                mu = self.mu_train
            else:
                d = torch.tensor(1.0) if y > 0 else torch.tensor(-1.0)
                mu = self.mu_dd
            e = d - y
            if k >= train_len and e.abs() > self.reset_err:
                w = init
                resets += 1
                decisions.append(torch.zeros(()))  # erasure
                continue
            w = w + mu * e * buf
            decisions.append(d)
            if k < train_len:
                train_err.append(e * e)
        return torch.stack(decisions), w, torch.stack(train_err).mean(), torch.tensor(resets)


def model():
    torch.manual_seed(43)
    return LMSEqualizer().eval()


def _burst(n, train_len, seed, pre=0.2, post=0.45, noise=0.05, fade_at=None):
    g = torch.Generator().manual_seed(seed)
    sym = torch.where(torch.rand(max(n, train_len) + 1, generator=g) < 0.5, -1.0, 1.0)
    # multipath: a weak precursor, the direct path, a strong surface echo one symbol later
    rx = pre * sym[1:n + 1] + sym[:n] + post * torch.cat([torch.zeros(1), sym[:n - 1]])
    rx = rx + noise * torch.randn(n, generator=g)
    if fade_at is not None:  # a burst of impulsive snapping-shrimp noise
        rx[fade_at:fade_at + 3] = rx[fade_at:fade_at + 3] * 4.0
    return rx, sym[:train_len]


def example_inputs():
    return _burst(120, 32, 1)


def dynamic_shapes():
    return ({0: Dim("samples", min=2, max=4096)}, {0: Dim("preamble", min=2, max=512)})


def verify_inputs():
    return [
        example_inputs(),                 # preamble then clean decision-directed tracking
        _burst(150, 40, 2, fade_at=90),   # impulsive noise after the preamble: error explodes, taps reset
        _burst(20, 32, 3),                # burst shorter than the preamble: preamble truncated, never decision-directed
        _burst(80, 2, 4, noise=0.02),     # 2-symbol preamble: almost entirely decision-directed
        _burst(6, 4, 5),                  # 6-sample fragment: prior features zero-padded (ternary else), preamble only
    ]
