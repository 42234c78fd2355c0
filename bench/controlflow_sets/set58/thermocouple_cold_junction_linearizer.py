"""Type-K thermocouple front end: cold-junction compensation, NIST ITS-90 inverse
polynomials per voltage range, open-circuit hold, and a learned aging correction."""
import torch
import torch.nn as nn
import torch.nn.functional as F

# NIST ITS-90 type K inverse coefficients (mV -> degC) for the three voltage ranges
INV_NEG = [0.0, 2.5173462e1, -1.1662878, -1.0833638, -8.9773540e-1, -3.7342377e-1,
           -8.6632643e-2, -1.0450598e-2, -5.1920577e-4]
INV_MID = [0.0, 2.508355e1, 7.860106e-2, -2.503131e-1, 8.315270e-2, -1.228034e-2,
           9.804036e-4, -4.413030e-5, 1.057734e-6, -1.052755e-8]
INV_HIGH = [-1.318058e2, 4.830222e1, -1.646031, 5.464731e-2, -9.650715e-4,
            8.802193e-6, -3.110810e-8]
E_MIN, E_MID, E_MAX = -5.891, 20.644, 54.886


def horner(coeffs, x):
    acc = torch.zeros_like(x)
    for c in reversed(coeffs):
        acc = acc * x + c
    return acc


def mv_to_celsius(e):
    if e < 0.0:
        return horner(INV_NEG, e)
    elif e < E_MID:
        return horner(INV_MID, e)
    return horner(INV_HIGH, e)


def cold_junction_mv(t_cj):
    # Seebeck curve linearised around room temperature (fine for a 0..50 degC terminal block)
    return 0.039450 * t_cj + 2.5e-5 * t_cj * t_cj


class ThermocoupleReadout(nn.Module):
    def __init__(self, smooth_min_len=8):
        super().__init__()
        self.aging = nn.Linear(2, 1)  # fitted on recalibration runs of aged probes
        self.smooth_min_len = smooth_min_len

    def forward(self, mv, t_cj):
        t_cj = t_cj.reshape(())
        e_cj = cold_junction_mv(t_cj)
        last_good = t_cj  # before the first valid reading, report the terminal temperature
        temps, faults = [], []
        for i in range(mv.shape[0]):
            e = mv[i] + e_cj
            if e < E_MIN or e > E_MAX:
                # open or shorted probe: hold the last good value and flag it
                temps.append(last_good)
                faults.append(torch.ones((), dtype=torch.int64))
                continue
            t = mv_to_celsius(e)
            drift = self.aging(torch.stack([t / 1000.0, t_cj / 100.0]))
            last_good = t + 0.5 * torch.tanh(drift[0])
            temps.append(last_good)
            faults.append(torch.zeros((), dtype=torch.int64))
        out = torch.stack(temps)
        if mv.shape[0] >= self.smooth_min_len:
            # long buffers get a 1-2-1 filter against ADC quantisation noise
            kernel = out.new_tensor([0.25, 0.5, 0.25]).view(1, 1, 3)
            padded = F.pad(out.view(1, 1, -1), (1, 1), mode="replicate")
            out = F.conv1d(padded, kernel).view(-1)
        return out, torch.stack(faults)


def model():
    torch.manual_seed(5802)
    return ThermocoupleReadout().eval()


def example_inputs():
    # furnace ramp, 16 samples spanning sub-zero, 0..500 degC and > 500 degC ranges
    mv = torch.linspace(-3.0, 45.0, 16)
    return mv, torch.tensor([23.5])


def dynamic_shapes():
    return ({0: torch.export.Dim("samples", min=2, max=256)}, None)


def verify_inputs():
    g = torch.Generator().manual_seed(58)
    long_mv = 10.0 + 4.0 * torch.randn(256, generator=g)
    long_mv[100] = 70.0  # probe wire shorted to heater supply
    return [
        # all three polynomial ranges, >= 8 samples: 1-2-1 smoothing
        example_inputs(),
        # first reading open-circuit (hold junction temp), then high range; 2 samples: no smoothing
        (torch.tensor([-9.0, 30.0]), torch.tensor([21.0])),
        # mid range only with one out-of-range spike later (hold last good); 256 samples
        (long_mv, torch.tensor([25.0])),
        # cryogenic side: negative range, one below -5.891 mV fault; 5 samples (< 8)
        (torch.tensor([-1.0, -4.5, -7.5, -2.0, 0.5]), torch.tensor([18.0])),
    ]
