"""Anti-islanding protection for a grid-tied PV inverter (IEEE 1547 style).

Kind T.  Constructs: 1, 2, 3, 5, 6.
Hard voltage/frequency windows plus a ROCOF-based islanding probability (with
a small learned correction from a 1-D CNN) feed a trip counter that is
stepped sample by sample; the loop stops at the first trip.
"""
import torch
import torch.nn as nn
from torch.export import Dim

STEPS = Dim("steps", min=8, max=512)

V_MIN, V_MAX = 0.88, 1.10      # per unit
F_NOM, F_BAND = 60.0, 0.5      # Hz
TRIP_AT = 3.0


def rocof(freq, dt):
    # rate of change of frequency, Hz/s, same length as freq
    d = (freq[1:] - freq[:-1]) / dt
    return torch.cat([d[:1], d])


class AntiIslanding(nn.Module):
    def __init__(self, dt=0.02):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(2, 8, 5, padding=2), nn.Tanh(),
            nn.Conv1d(8, 1, 5, padding=2),
        )
        self.dt = dt

    def forward(self, meas):
        # meas: [steps, 2] = (voltage pu, frequency Hz)
        volts, freq = meas[:, 0], meas[:, 1]
        x = torch.stack([volts - 1.0, freq - F_NOM]).unsqueeze(0)
        correction = torch.tanh(self.net(x)).squeeze(0).squeeze(0)
        p_island = torch.sigmoid(20.0 * (rocof(freq, self.dt).abs() - 0.5) + 0.2 * correction)

        count = torch.zeros(())
        tripped_at = torch.full((), -1.0)
        trace = []
        for t in range(meas.shape[0]):
            v, f = volts[t], freq[t]
            if v < V_MIN or v > V_MAX or (f - F_NOM).abs() > F_BAND:
                count = count + 1.0
            elif p_island[t] > 0.9:
                count = count + 0.5
            else:
                count = torch.clamp(count - 1.0, min=0.0)
            trace.append(count)
            if count >= TRIP_AT:
                tripped_at = torch.tensor(float(t))
                break
        return torch.stack(trace), tripped_at


def model():
    torch.manual_seed(63005)
    return AntiIslanding().eval()


def _grid(n, seed, sag=None, swell=None, fdev=None, drift=None):
    g = torch.Generator().manual_seed(seed)
    v = 1.0 + 0.005 * torch.randn(n, generator=g)
    f = F_NOM + 0.002 * torch.randn(n, generator=g)
    if sag is not None:
        a, b = sag
        v[a:b] = 0.80
    if swell is not None:
        a, b = swell
        v[a:b] = 1.15
    if fdev is not None:
        a, b = fdev
        f[a:b] = F_NOM + 0.8
    if drift is not None:
        a, b = drift                       # island: frequency ramps at 1.5 Hz/s, still inside the band
        ramp = 0.03 * torch.arange(b - a, dtype=torch.float32)
        f[a:b] = F_NOM + ramp
        f[b:] = f[b - 1]
    return torch.stack([v, f], dim=1)


def example_inputs():
    return (_grid(50, 1),)


def dynamic_shapes():
    return ({0: STEPS},)


def verify_inputs():
    return [
        example_inputs(),                          # healthy grid: never trips, loop runs to the end
        (_grid(40, 2, sag=(10, 30)),),             # deep sag: 1st operand, trips at 3rd sample -> break
        (_grid(40, 3, swell=(5, 7)),),             # 2-sample swell: 2nd operand, counter decays again (else)
        (_grid(30, 4, fdev=(20, 30)),),            # frequency excursion: 3rd operand, trip -> break
        (_grid(60, 5, drift=(20, 31)),),           # islanding ramp: ROCOF elif path, half-steps until trip
        (_grid(8, 6, sag=(0, 8)),),                # shortest window, trips immediately
    ]
