"""Silica scaling watch for a geothermal production well.

From a window of wellhead readings the monitor computes the amorphous
silica saturation index (SSI) at separator conditions and the decline of
the mass flow over the window.  Supersaturated brine combined with a
falling flow raises the scaling alarm, and the inhibitor dose that brings
the effective saturation back under the limit is found by bisection on the
inhibitor's (non-linear) efficiency curve.
"""
import torch
import torch.nn as nn


def amorphous_silica_solubility(temp_c):
    """Solubility of amorphous silica in mg/kg."""
    t_k = temp_c + 273.15
    if temp_c < 90.0:
        # Fournier's low-temperature fit, used when the brine is flashed hard
        return 10.0 ** (-731.0 / t_k + 4.52)
    # Gunnarsson & Arnorsson (2000), mol/kg -> mg/kg
    log_m = -8.476 - 485.24 / t_k - 2.268e-6 * t_k ** 2 + 3.068 * torch.log10(t_k)
    return 10.0 ** log_m * 60084.0


def flow_decline(flow):
    """Relative decline of mass flow from the start to the end of the window."""
    if flow.shape[0] >= 8:
        q = flow.shape[0] // 4
        first, last = flow[:q].mean(), flow[-q:].mean()
    else:
        first, last = flow[0], flow[-1]
    return (first - last) / first


class ScalingMonitor(nn.Module):
    def __init__(self, separator_temp_c=160.0, decline_alarm=0.10, target_ssi=0.95, max_dose_ppm=40.0):
        super().__init__()
        self.separator_temp_c = separator_temp_c
        self.decline_alarm = decline_alarm
        self.target_ssi = target_ssi
        self.max_dose_ppm = max_dose_ppm
        # learned correction of the SSI for the brine chemistry (pH, salinity proxies)
        self.chem_net = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1), nn.Tanh())

    def inhibitor_dose(self, ssi):
        lo = torch.zeros(())
        hi = torch.full((), self.max_dose_ppm)
        steps = 0
        while hi - lo > 0.25 and steps < 40:
            mid = 0.5 * (lo + hi)
            efficiency = 1.0 - torch.exp(-mid / 8.0)
            effective = ssi * (1.0 - 0.6 * efficiency)
            if effective > self.target_ssi:
                lo = mid
            else:
                hi = mid
            steps += 1
        return hi

    def forward(self, readings):
        # readings: (n_samples, 4) [mass flow kg/s, wellhead pressure bar, wellhead temp C, silica mg/kg]
        silica = readings[:, 3].mean()
        solubility = amorphous_silica_solubility(torch.tensor(self.separator_temp_c))
        feats = readings.mean(dim=0) / torch.tensor([50.0, 20.0, 200.0, 500.0])
        ssi = silica / solubility * (1.0 + 0.05 * self.chem_net(feats).squeeze(-1))
        decline = flow_decline(readings[:, 0])

        if ssi > 1.0 and decline > self.decline_alarm:
            level = torch.tensor(2)
            dose = self.inhibitor_dose(ssi)
        elif ssi > 1.0:
            level = torch.tensor(1)
            dose = torch.full((), 2.0)       # maintenance dose
        else:
            level = torch.tensor(0)
            dose = torch.zeros(())
        return level, dose, ssi


class LowPressureScalingMonitor(ScalingMonitor):
    """Binary-plant variant: brine is flashed down to 80 C before reinjection."""

    def __init__(self):
        super().__init__(separator_temp_c=80.0)


class WellPad(nn.Module):
    """Both the high-pressure separator and the reinjection line of one well."""

    def __init__(self):
        super().__init__()
        self.lines = nn.ModuleList([ScalingMonitor(), LowPressureScalingMonitor()])

    def forward(self, readings):
        levels, doses, ssis = [], [], []
        for line in self.lines:
            level, dose, ssi = line(readings)
            levels.append(level)
            doses.append(dose)
            ssis.append(ssi)
        return torch.stack(levels), torch.stack(doses), torch.stack(ssis)


def model():
    torch.manual_seed(5708)
    return WellPad().eval()


N_SAMPLES = torch.export.Dim("n_samples", min=2, max=288)


def _readings(n, silica, flow_drop, seed):
    g = torch.Generator().manual_seed(seed)
    r = torch.tensor([45.0, 12.0, 185.0, silica]).repeat(n, 1)
    r[:, 0] *= torch.linspace(1.0, 1.0 - flow_drop, n)
    return r + torch.randn(n, 4, generator=g) * torch.tensor([0.2, 0.05, 0.5, 3.0])


def example_inputs():
    # a day of 5-minute readings, rich brine, flow dropping 15%
    return (_readings(288, 850.0, 0.15, 1),)


def dynamic_shapes():
    return ({0: N_SAMPLES},)


def verify_inputs():
    return [
        # SSI>1 and 15% decline -> alarm + bisection dose on both lines (reinjection, low-T fit,
        # is so supersaturated that the bisection runs up to the maximum dose)
        example_inputs(),
        # 2 samples (first/last decline), moderate silica: separator undersaturated (level 0),
        # reinjection level 2 with a bisection dose inside the range
        (_readings(2, 400.0, 0.2, 2),),
        # stable flow, rich brine: SSI>1 without decline -> level 1 on both
        (_readings(24, 850.0, 0.0, 3),),
        # lean brine: undersaturated everywhere -> level 0
        (_readings(6, 150.0, 0.3, 4),),
    ]
