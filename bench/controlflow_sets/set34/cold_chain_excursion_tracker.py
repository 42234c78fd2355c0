"""Vaccine cold-chain excursion tracker.

A data logger inside a vaccine shipper records the temperature every 5 minutes
together with a probe-health flag. A learned smoothing kernel models the
thermal mass of the payload; the tracker then scans the log, skips readings
from a faulty probe, accumulates consecutive minutes outside 2-8 C and stops as
soon as an excursion exceeds the allowed duration (shipment rejected). It also
reports the mean kinetic temperature of the valid readings.

Kind T. Constructs: 1 (if/else on tensor comparisons), 2 (`rejected` assigned
in one branch only, with a value from before the loop), 3 (`or` of tensor
predicates), 5 (for over the dynamic log length), 6 (continue on bad probe,
break on rejection).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ColdChainTracker(nn.Module):
    def __init__(self, low=2.0, high=8.0, interval_min=5.0, max_excursion_min=30.0, kernel=5):
        super().__init__()
        self.low = low
        self.high = high
        self.interval = interval_min
        self.max_excursion = max_excursion_min
        self.kernel_logits = nn.Parameter(torch.randn(kernel) * 0.5)
        self.delta_h_over_r = 83.144 / 8.314e-3  # 83.144 kJ/mol activation energy / R

    def payload_temperature(self, air_temp):
        w = torch.softmax(self.kernel_logits, dim=0)  # convex weights: stays in the data range
        k = w.shape[0]
        x = F.pad(air_temp.view(1, 1, -1), (k - 1, 0), mode="replicate")
        return F.conv1d(x, w.view(1, 1, -1)).view(-1)

    def forward(self, temps, probe_ok):
        # temps: (T,) deg C, probe_ok: (T,) 1.0 = healthy reading
        valid = probe_ok > 0.5
        # garbage from a disconnected probe must not leak into the thermal model
        filled = torch.where(valid, temps, temps[valid].mean())
        payload = self.payload_temperature(filled)
        out_of_range = torch.zeros(())
        worst = torch.zeros(())
        rejected = False
        last = temps.shape[0] - 1
        for t in range(temps.shape[0]):
            if probe_ok[t] < 0.5:
                continue
            temp = payload[t]
            if temp > self.high or temp < self.low:
                out_of_range = out_of_range + self.interval
                worst = torch.maximum(worst, out_of_range)
                if out_of_range > self.max_excursion:
                    rejected = True
                    last = t
                    break
            else:
                out_of_range = torch.zeros(())

        kelvin = payload[valid] + 273.15
        mkt = self.delta_h_over_r / -torch.log(torch.exp(-self.delta_h_over_r / kelvin).mean()) - 273.15
        status = torch.ones(1) if rejected else torch.zeros(1)
        return status, worst.reshape(1), mkt.reshape(1), torch.tensor([last])


def model():
    torch.manual_seed(3403)
    return ColdChainTracker().eval()


def _log(n, seed, spikes=(), dropouts=()):
    g = torch.Generator().manual_seed(seed)
    temps = 4.5 + torch.rand(n, generator=g) * 2.0  # 4.5-6.5 C, comfortably in range
    ok = torch.ones(n)
    for start, length, value in spikes:
        temps[start:start + length] = value
    for i in dropouts:
        ok[i] = 0.0
        temps[i] = -40.0  # disconnected probe reads garbage
    return temps, ok


def example_inputs():
    # short 15-minute excursion to 11 C (3 readings) and one probe dropout: accepted
    return _log(48, 1, spikes=[(10, 3, 11.0)], dropouts=[30])


def dynamic_shapes():
    T = torch.export.Dim("readings", min=2, max=512)
    return ({0: T}, {0: T})


def verify_inputs():
    return [
        # short warm excursion then back in range (reset), a dropout skipped -> accepted
        example_inputs(),
        # freezer accident: 2 h at -3 C -> excursion grows past 30 min -> break, rejected
        _log(96, 2, spikes=[(40, 24, -3.0)]),
        # all readings in range, no dropouts -> never out of range
        _log(12, 3),
        # two readings, the first from a faulty probe (continue), second fine
        (torch.tensor([-40.0, 5.0]), torch.tensor([0.0, 1.0])),
        # long log with many dropouts inside a hot excursion: dropouts skipped while the
        # excursion keeps counting until rejection
        _log(200, 4, spikes=[(100, 30, 14.0)], dropouts=[60, 105, 106, 110]),
    ]
