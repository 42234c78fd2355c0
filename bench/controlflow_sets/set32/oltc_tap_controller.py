"""Automatic voltage control relay for a substation on-load tap changer.

Kind X. Constructs: 1, 2, 3, 4, 5, 6, 9.
Per-second secondary voltage (per unit) and load current are fed to the
relay.  With line-drop compensation (learned R/X-style coefficients) the
relay estimates the voltage at the load centre; when it stays outside the
dead band longer than the time delay, the tap is moved, several steps at
once for large deviations.  Undervoltage (fault) samples block the relay,
and after too many operations in the window the changer locks out.
Output: tap position per second, and the number of operations.
"""
import torch
import torch.nn as nn


class TapChangerAVC(nn.Module):
    def __init__(self, setpoint=1.0, band=0.02, delay_s=5, step_pu=0.00625,
                 min_tap=-8, max_tap=8, max_ops=6, line_drop_compensation=True):
        super().__init__()
        self.setpoint, self.half_band, self.delay = setpoint, band / 2, delay_s
        self.step, self.min_tap, self.max_tap, self.max_ops = step_pu, min_tap, max_tap, max_ops
        self.ldc = line_drop_compensation
        self.ldc_coef = nn.Parameter(0.01 + 0.002 * torch.randn(2))

    def forward(self, voltage, current, tap0):
        tap = tap0.squeeze().clone()
        timer = 0
        ops = 0
        taps = []
        for t in range(voltage.shape[0]):
            v = voltage[t] + (tap - tap0.squeeze()) * self.step  # each tap step raises the secondary
            if self.ldc:
                v = v - self.ldc_coef[0] * current[t] - self.ldc_coef[1] * current[t] ** 2
            if v < 0.8:
                timer = 0  # undervoltage block: a fault, not a regulation problem
                taps.append(tap)
                continue
            dev = v - self.setpoint
            if dev.abs() <= self.half_band:
                timer = 0
                taps.append(tap)
                continue
            timer += 1
            if timer < self.delay:
                taps.append(tap)
                continue
            # delay expired: step until back inside the band (or out of taps)
            while dev.abs() > self.half_band and tap > self.min_tap and tap < self.max_tap:
                direction = -torch.sign(dev).long()
                tap = tap + direction
                dev = dev + direction * self.step
                ops += 1
            timer = 0
            taps.append(tap)
            if ops >= self.max_ops:
                break  # lockout: operator must reset
        taps = torch.stack(taps)
        if taps.shape[0] < voltage.shape[0]:
            taps = torch.cat([taps, taps[-1].expand(voltage.shape[0] - taps.shape[0])])
        return taps, torch.tensor(ops)


def model():
    torch.manual_seed(3214)
    return TapChangerAVC().eval()


def _feed(segments, tap0=0, current=0.5):
    """segments: list of (seconds, per-unit voltage level)."""
    v = torch.cat([torch.full((n,), lvl) for n, lvl in segments])
    i = torch.full_like(v, current)
    return v, i, torch.tensor([tap0])


def example_inputs():
    # sag to 0.965 pu for 12 s: after 5 s delay the tap raises by a few steps
    return _feed([(4, 1.0113), (12, 0.9763), (8, 0.9913)])


def dynamic_shapes():
    t = torch.export.Dim("seconds", min=4, max=3600)
    return ({0: t}, {0: t}, None)


def verify_inputs():
    return [
        example_inputs(),                                        # in band, delay timer runs, multi-step raise
        _feed([(3, 1.0113), (3, 0.9863), (3, 1.0113)]),          # excursion shorter than the delay: no operation
        _feed([(3, 1.0113), (2, 0.55), (4, 1.0113)]),            # fault: undervoltage block 'continue'
        _feed([(2, 1.0113), (7, 1.0463), (5, 1.0113)]),          # overvoltage: lower the tap
        _feed([(12, 0.9163)], tap0=6),                           # deep sag near the top tap: while stops at max_tap,
                                                                 # later expiry at max_tap -> while runs 0 times
        _feed([(6, 1.0463), (6, 0.9763), (6, 1.0463), (6, 0.9763), (6, 1.0463)]),  # hunting -> lockout break, padded
        _feed([(5, 1.0163)], current=1.5),                       # heavy load: raw voltage high, compensated load-centre
                                                                 # voltage low -> raise
        _feed([(6, 0.9944), (6, 0.9813)], tap0=-2),              # small deviation: single step, then a 2-step raise
        _feed([(7, 1.0863)], tap0=-7),                           # overvoltage near the bottom tap: while stops at min_tap
    ]
