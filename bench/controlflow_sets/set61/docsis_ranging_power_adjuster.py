"""DOCSIS cable modem upstream ranging across bonded channels.

The CMTS measures each upstream channel's receive level and sends power
adjustments (at most 6 dB per ranging response) until every channel lands
within +-1 dB of the target.  A channel that would need more than the
modem's maximum transmit power is dropped to partial service.  The plant's
level response is modelled by a small learned correction (amplifier tilt /
compression).  After ranging, each surviving channel gets a modulation
profile from its SNR; a modem with no channel left goes offline.

KIND X.  Constructs: 1 (if on tensor comparisons), 2 (early return; helper
returning inside an if/elif chain), 3 (and/not on tensor predicates),
4 (while with a tensor condition and an attempt cap), 5 (for over the dynamic
channel count, list + torch.stack), 6 (continue on tensor conditions),
7 (helpers for measurement and modulation choice), 9 (DOCSIS version config).
"""
import torch
import torch.nn as nn
from torch.export import Dim

KIND = "X"
CONSTRUCTS = (1, 2, 3, 4, 5, 6, 7, 9)


class DocsisRanging(nn.Module):
    def __init__(self, docsis31=False, target_rx=0.0, tol_db=1.0, max_step_db=6.0, max_attempts=8):
        super().__init__()
        self.max_tx = 65.0 if docsis31 else 57.0
        self.target_rx = target_rx
        self.tol = tol_db
        self.max_step = max_step_db
        self.max_attempts = max_attempts
        self.plant = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))

    def _measure(self, tx, path_loss):
        c = tx.shape[0]
        pos = torch.arange(c, dtype=tx.dtype) / c
        corr = 0.8 * torch.tanh(self.plant(torch.stack([tx / 60.0, pos], dim=1))).squeeze(1)
        return tx - path_loss + corr

    def _bits_per_symbol(self, snr):
        if snr > 33.0:
            return torch.tensor(8.0)   # 256-QAM
        elif snr > 27.0:
            return torch.tensor(6.0)   # 64-QAM
        elif snr > 21.0:
            return torch.tensor(4.0)   # 16-QAM
        return torch.tensor(2.0)       # QPSK

    def forward(self, path_loss, tx_init, noise_floor):
        # path_loss, tx_init, noise_floor: (C,) dB / dBmV per bonded upstream channel
        c = path_loss.shape[0]
        tx = tx_init.clone()
        active = torch.ones(c, dtype=torch.bool)
        err = self.target_rx - self._measure(tx, path_loss)
        attempts = 0
        while ((err.abs() > self.tol) & active).any() and attempts < self.max_attempts:
            for ch in range(c):
                if not active[ch]:
                    continue
                if err[ch].abs() <= self.tol:
                    continue
                new_level = tx[ch] + err[ch].clamp(-self.max_step, self.max_step)
                if new_level > self.max_tx:
                    active[ch] = False  # out of headroom: partial service
                    continue
                tx[ch] = new_level
            err = self.target_rx - self._measure(tx, path_loss)
            attempts += 1

        if not active.any():
            return tx, active, torch.zeros(c), torch.tensor(attempts)
        rx = self._measure(tx, path_loss)
        bits = []
        for ch in range(c):
            bits.append(self._bits_per_symbol(rx[ch] - noise_floor[ch]) if active[ch] else torch.tensor(0.0))
        return tx, active, torch.stack(bits), torch.tensor(attempts)


def model():
    torch.manual_seed(61015)
    return DocsisRanging().eval()


def example_inputs():
    # four bonded channels, modem starts 8-14 dB off: a few ranging rounds
    return (torch.tensor([40.0, 42.0, 44.0, 46.0]), torch.tensor([30.0, 32.0, 34.0, 36.0]),
            torch.tensor([-35.0, -30.0, -25.0, -20.0]))


def dynamic_shapes():
    c = Dim("channels", min=2, max=32)
    return ({0: c}, {0: c}, {0: c})


def verify_inputs():
    return [
        # all channels converge after several 6-dB steps; mixed modulation profiles
        example_inputs(),
        # already in range at start: while runs 0 times
        (torch.tensor([35.0, 36.0]), torch.tensor([35.2, 35.7]), torch.tensor([-36.0, -22.0])),
        # channel 2 has 70 dB of loss: needs > 57 dBmV -> dropped in round 1 and skipped
        # (not active) in round 2 while channel 1 still converges
        (torch.tensor([45.0, 47.0, 70.0]), torch.tensor([40.0, 35.0, 56.0]),
         torch.tensor([-30.0, -30.0, -30.0])),
        # badly over-attenuated plant: both channels out of headroom -> offline
        (torch.tensor([62.0, 64.0]), torch.tensor([50.0, 50.0]), torch.tensor([-30.0, -30.0])),
        # 6 channels, two already within tolerance (skipped), channel 2 is 52 dB low:
        # the attempt cap (8 rounds of 6 dB) stops ranging before it converges
        (torch.tensor([30.0, 31.0, 32.0, 33.0, 34.0, 35.0]),
         torch.tensor([28.0, 30.0, -20.0, 33.5, 34.0, 20.0]),
         torch.tensor([-34.0, -28.0, -26.0, -24.0, -22.0, -18.0])),
    ]
