"""Tilt mechanism for a digital pinball cabinet.

The cabinet has a 3-axis accelerometer instead of the old plumb-bob tilt.
Each sample's deviation from the resting baseline is weighted per axis
(calibrated gains) into a nudge strength.  Strong nudges fill a "tilt meter"
that leaks over time; when the meter crosses the warning level the player
gets a warning, and after enough warnings the ball is tilted and the scan
stops.
"""
import torch
import torch.nn as nn


class TiltDetector(nn.Module):
    def __init__(self, noise_floor=0.08, warn_level=1.0, decay=0.95, warnings_to_tilt=3, cooldown_samples=20):
        super().__init__()
        # per-axis calibration gains of the accelerometer (x, y, z)
        self.axis_gain = nn.Parameter(torch.rand(3) * 0.5 + 0.75)
        self.noise_floor = noise_floor
        self.warn_level = warn_level
        self.decay = decay
        self.warnings_to_tilt = warnings_to_tilt
        self.cooldown_samples = cooldown_samples

    def forward(self, accel):
        # accel: (n_samples, 3) in g, machine at rest at the start of the window
        if accel.shape[0] >= 8:
            baseline = accel[:8].mean(dim=0)
        else:
            baseline = accel.mean(dim=0)
        strength = ((accel - baseline) * self.axis_gain).norm(dim=1)

        meter = torch.zeros(())
        warnings = torch.zeros((), dtype=torch.long)
        cooldown = torch.zeros(())
        trace = []
        for t in range(accel.shape[0]):
            meter = meter * self.decay
            cooldown = cooldown - 1
            if strength[t] < self.noise_floor:
                trace.append(meter)
                continue
            meter = meter + strength[t]
            if meter > self.warn_level and cooldown <= 0:
                warnings = warnings + 1
                meter = torch.zeros(())
                cooldown = torch.full((), float(self.cooldown_samples))
                if warnings >= self.warnings_to_tilt:
                    trace.append(meter)
                    break
            trace.append(meter)
        return torch.stack(trace), warnings


def model():
    torch.manual_seed(5703)
    return TiltDetector().eval()


N_SAMPLES = torch.export.Dim("n_samples", min=2, max=512)


def _accel(n, nudges, seed, amp=0.4):
    """Resting cabinet (z = 1 g) with small noise plus nudge bursts at given indices."""
    g = torch.Generator().manual_seed(seed)
    a = torch.zeros(n, 3)
    a[:, 2] = 1.0
    a = a + 0.01 * torch.randn(n, 3, generator=g)
    for i in nudges:
        a[i:i + 3, 0] += amp
        a[i:i + 3, 1] -= 0.5 * amp
    return a


def example_inputs():
    # two spaced-out nudges: two warnings, no tilt
    return (_accel(200, [40, 120], 1),)


def dynamic_shapes():
    return ({0: N_SAMPLES},)


def verify_inputs():
    return [
        # two warnings, no tilt; quiet samples take the continue path
        example_inputs(),
        # 2 samples only (baseline from all samples), quiet -> only continue path
        (_accel(2, [], 2),),
        # 512 samples, repeated hard shakes -> third warning tilts and breaks early
        (_accel(512, [30, 90, 150, 210, 270], 3, amp=0.6),),
        # frantic double nudge inside the cooldown: meter high but cooldown blocks a second warning
        (_accel(64, [20, 26], 4),),
    ]
