"""Wi-Fi rate control in the spirit of Minstrel.

Per statistics window the driver reports the frame delivery ratio for each
of the 12 legacy 802.11b/g rates plus the receiver SNR. An EWMA smooths the
delivery ratios window by window, a small learned SNR correction adjusts the
expected throughput, and the selector returns the rate to use, the rate to
probe next (look-around) and the smoothed statistics.
"""
import torch
import torch.nn as nn

RATES_MBPS = [1.0, 2.0, 5.5, 11.0, 6.0, 9.0, 12.0, 18.0, 24.0, 36.0, 48.0, 54.0]


class MinstrelSelector(nn.Module):
    def __init__(self, alpha=0.25, lookaround=True):
        super().__init__()
        self.alpha = alpha
        self.lookaround = lookaround
        self.register_buffer("rates", torch.tensor(RATES_MBPS))
        self.snr_net = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, len(RATES_MBPS)))

    def forward(self, delivery, snr_db):
        # delivery: [windows, 12] ratio of ACKed frames, snr_db: [windows]
        prob = delivery[0]
        history = []
        for w in range(delivery.shape[0]):
            prob = self.alpha * delivery[w] + (1.0 - self.alpha) * prob
            history.append(prob)
        ewma = torch.stack(history)

        snr_feat = torch.stack([snr_db[-1] / 30.0, snr_db.mean() / 30.0])
        correction = 1.0 + 0.1 * torch.tanh(self.snr_net(snr_feat))
        tput = ewma[-1] * self.rates * correction
        best = torch.argmax(tput)

        if ewma[-1, best] < 0.1:
            # link is collapsing: fall back to the most robust rate
            rate_idx = torch.zeros_like(best)
        elif snr_db[-1] < 8.0:
            # low SNR: never pick an OFDM rate above 12 Mbps
            rate_idx = torch.argmax(tput[:7])
        else:
            rate_idx = best
        n_rates = self.rates.shape[0]
        probe_idx = torch.clamp(rate_idx + 1, max=n_rates - 1) if self.lookaround else rate_idx
        return rate_idx, probe_idx, ewma


def model():
    torch.manual_seed(5504)
    return MinstrelSelector().eval()


def _link(windows, quality, snr, seed):
    g = torch.Generator().manual_seed(seed)
    r = torch.tensor(RATES_MBPS)
    base = torch.sigmoid(quality - r / 10.0)
    delivery = (base + 0.05 * torch.rand(windows, 12, generator=g)).clamp(0.001, 1.0)
    snr_db = snr + torch.randn(windows, generator=g)
    return delivery, snr_db


def example_inputs():
    return _link(10, 4.0, 25.0, 1)


def dynamic_shapes():
    windows = torch.export.Dim("windows", min=2, max=64)
    return ({0: windows}, {0: windows})


def verify_inputs():
    return [
        example_inputs(),              # good link, high SNR: best-throughput rate
        _link(2, 3.0, 20.0, 2),        # windows=min, high SNR
        _link(64, -6.0, 15.0, 3),      # windows=max, collapsing link -> fallback to rate 0
        _link(12, 6.0, 3.0, 4),        # low SNR -> capped to the first 7 rates
    ]
