"""Preservative (buffered propionic acid) applicator on a large square baler.

Star-wheel moisture sensors in the bale chamber report [moisture %,
throughput t/h, chamber temperature C].  From the recent readings and the
crop profile [safe moisture %, stop moisture %, product strength] the
controller sets the dose (L per tonne), advises the tractor driver (0 keep
going, 1 watch, 2 slow down) and drives the two applicator pumps.
Returns [dose, advice, low-flow pump, high-flow pump].
"""
import torch
import torch.nn as nn


class ApplicatorPump(nn.Module):
    """Pump drive; the high-flow pump only runs above its minimum flow."""

    def __init__(self, high_flow):
        super().__init__()
        self.high_flow = high_flow
        self.valve = nn.Linear(2, 1)

    def forward(self, litres_per_hour, temp_c):
        feats = torch.stack([litres_per_hour / 100.0, temp_c / 40.0]).unsqueeze(0)
        duty = torch.sigmoid(self.valve(feats)).squeeze()
        if self.high_flow:
            return torch.where(litres_per_hour > 40.0, duty, torch.zeros_like(duty))
        return duty


class PreservativeController(nn.Module):
    def __init__(self, window=30, dose_per_point=0.8, max_dose=8.0):
        super().__init__()
        self.window = window
        self.dose_per_point = dose_per_point
        self.max_dose = max_dose
        self.pumps = nn.ModuleList([ApplicatorPump(high_flow=False), ApplicatorPump(high_flow=True)])

    def _dose_rate(self, moisture, safe, stop, strength):
        # label rate table, linearised: litres per tonne above the safe moisture
        if moisture >= stop:
            return torch.full((), self.max_dose)
        excess = moisture - safe
        dose = torch.zeros(())
        if excess > 0:
            dose = torch.clamp(excess * self.dose_per_point / strength, 0.0, self.max_dose)
        return dose

    def forward(self, readings, crop_profile):
        if readings.shape[0] > self.window:
            recent = readings[-self.window:]
        else:
            recent = readings
        moisture, throughput, temp = recent.mean(dim=0).unbind()
        safe, stop, strength = crop_profile.unbind()

        dose = self._dose_rate(moisture, safe, stop, strength)

        # near the stop limit the driver must slow down, unless already crawling
        if moisture > stop - 3.0 and not bool(throughput < 8.0):
            advice = torch.full((), 2.0)
        elif moisture > safe + 5.0 or (recent[:, 0] > stop).any():
            advice = torch.ones(())
        else:
            advice = torch.zeros(())

        flow = dose * throughput                   # L/h
        pump_cmds = [pump(flow, temp) for pump in self.pumps]
        return torch.stack([dose, advice] + pump_cmds)


def model():
    torch.manual_seed(5301)
    return PreservativeController().eval()


def example_inputs():
    return verify_inputs()[0]


def dynamic_shapes():
    samples = torch.export.Dim("samples", min=4, max=240)
    return ({0: samples}, None)


def verify_inputs():
    def field(n, moisture, tph, temp, seed, wet_patch=False):
        g = torch.Generator().manual_seed(seed)
        base = torch.tensor([moisture, tph, temp])
        r = base + torch.randn(n, 3, generator=g) * torch.tensor([0.3, 0.5, 0.2])
        if wet_patch:
            r[-3, 0] = 33.0                        # one wet swath in the window
        return r

    grass = torch.tensor([18.0, 30.0, 1.0])
    return [
        # example: 64 samples (> 30 window), 22 % moisture -> proportional
        # dose, no advice (else), high-flow pump idle below 40 L/h
        (field(64, 22.0, 12.0, 25.0, seed=1), grass),
        # 4 samples (min, whole window); 31 % >= stop -> max dose early
        # return; fast baling -> slow-down advice (if branch)
        (field(4, 31.0, 20.0, 28.0, seed=2), grass),
        # 240 samples (max); 16 % (dry, dose stays 0); one wet swath above
        # the stop moisture -> watch via any() (elif, second or-operand)
        (field(240, 16.0, 15.0, 24.0, seed=3, wet_patch=True), grass),
        # 20 samples; 28 % but crawling at 6 t/h (not-operand false) ->
        # watch via the first or-operand; > 40 L/h -> high-flow pump runs
        (field(20, 28.0, 6.0, 30.0, seed=4), torch.tensor([18.0, 30.0, 0.7])),
    ]
