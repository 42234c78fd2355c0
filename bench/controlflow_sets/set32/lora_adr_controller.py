"""LoRaWAN network-server Adaptive Data Rate (ADR) for one end device.

Kind T. Constructs: 1, 2, 3, 4, 8.
Classic Semtech ADR: take the best SNR of the recent uplinks, subtract the
demodulation floor of the current spreading factor and an installation
margin, and spend every 3 dB of surplus first on a lower spreading factor
and then on lower TX power (or raise the power when the margin is
negative).  A tiny learned head estimates a fading penalty from the SNR
statistics.
"""
import torch
import torch.nn as nn


class LoRaADR(nn.Module):
    def __init__(self, device_margin_db=10.0, history=20):
        super().__init__()
        self.device_margin_db = device_margin_db
        self.history = history
        self.min_power, self.max_power, self.power_step = 2, 14, 3  # dBm
        # demodulation floor (dB) for SF7..SF12
        self.register_buffer("required_snr", torch.tensor([-7.5, -10.0, -12.5, -15.0, -17.5, -20.0]))
        self.fading = nn.Linear(4, 1)

    def forward(self, snr_history, sf, tx_power):
        stats = torch.stack([snr_history.max(), snr_history.mean(),
                             snr_history.std(), snr_history.min()]) / 10.0
        fading_db = 1.5 * torch.sigmoid(self.fading(stats)).squeeze()
        snr_max = snr_history.max() - fading_db
        margin = snr_max - self.required_snr[sf - 7].squeeze() - self.device_margin_db
        if snr_history.shape[0] < self.history:
            # not enough uplinks yet for a reliable maximum: be conservative
            margin = margin - 3.0
        nstep = int(torch.floor(margin / 3.0).item())
        if snr_history.std() > 4.0:
            # unstable link (mobile device): move at most one step at a time
            nstep = max(min(nstep, 1), -1)

        sf = sf.clone()
        power = tx_power.clone()
        while nstep > 0 and sf > 7:
            sf = sf - 1
            nstep -= 1
        while nstep > 0 and power > self.min_power:
            power = power - self.power_step
            nstep -= 1
        while nstep < 0 and power < self.max_power:
            power = power + self.power_step
            nstep += 1
        return torch.cat([sf.float(), power.float(), margin.reshape(1)])


def model():
    torch.manual_seed(3202)
    return LoRaADR().eval()


def _link(seed, n, mean, spread, sf, power_dbm):
    g = torch.Generator().manual_seed(seed)
    snr = mean + spread * torch.randn(n, generator=g)
    return snr, torch.tensor([sf], dtype=torch.long), torch.tensor([power_dbm], dtype=torch.long)


def example_inputs():
    # strong link at SF10 with full history: SF 10 -> 7 then power down
    return _link(1, 24, 9.6, 1.0, 10, 14)


def dynamic_shapes():
    n = torch.export.Dim("uplinks", min=2, max=64)
    return ({0: n}, None, None)


def verify_inputs():
    return [
        example_inputs(),                 # SF loop many, power-down loop >=1
        _link(2, 24, 4.2, 1.0, 8, 14),    # SF loop once, power-down loop 0 (margin for one step)
        _link(3, 30, 12.2, 1.0, 7, 14),   # already SF7: SF loop 0 ('sf > 7' false), power down many
        _link(4, 24, -14.4, 1.0, 9, 8),   # negative margin: power-up loop many until max
        _link(5, 24, -5.7, 1.0, 9, 8),    # small negative margin: power-up once
        _link(6, 24, -1.2, 1.0, 9, 14),   # zero steps: all loops skip
        _link(7, 8, 0.0, 1.0, 12, 14),    # short history (size branch): conservative margin
        _link(8, 40, -2.0, 6.0, 12, 5),   # unstable link: nstep clamped to 1
        _link(9, 24, -20.0, 1.0, 9, 14),  # negative margin, already max power: power-up loop 0
        _link(3, 24, 12.2, 1.0, 7, 5),    # surplus left but power hits the 2 dBm floor: loop exits on 'power > min'
    ]
