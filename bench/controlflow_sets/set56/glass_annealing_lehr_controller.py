"""Float-glass annealing lehr: per-zone burner setpoint trims.

The lehr has six fixed heating zones along the ribbon.  Thermocouples log every
zone once a minute; the controller looks at the recent history (variable
length), picks a cooling profile from the ribbon thickness, lets a small
network trim the setpoints and finally holds zones back where the ribbon is
cooling faster than the strain limit allows.
"""
import torch
import torch.nn as nn

N_ZONES = 6


class LehrController(nn.Module):
    def __init__(self):
        super().__init__()
        self.trim_net = nn.Sequential(
            nn.Linear(2 * N_ZONES + 1, 32), nn.Tanh(), nn.Linear(32, N_ZONES))
        self.max_rate_c_per_min = 4.0
        self.history_len = 32
        self.clamp_trim = True
        self.register_buffer(
            "base_profile", torch.tensor([560.0, 545.0, 520.0, 480.0, 420.0, 340.0]))

    def cooling_profile(self, thickness):
        # thick ribbon has to go through the strain range more slowly
        if thickness.item() > 8.0:
            slope = 0.6
        elif thickness.item() < 3.0:
            slope = 1.3
        else:
            slope = 1.0
        return self.base_profile[0] - slope * (self.base_profile[0] - self.base_profile)

    def forward(self, readings, thickness):
        # readings: (minutes, 6) deg C, thickness: (1,) mm
        if readings.shape[0] > self.history_len:
            window = readings[-self.history_len:]
        else:
            window = readings
        mean_t = window.mean(dim=0)
        rate = (window[1:] - window[:-1]).abs().amax(dim=0)
        target = self.cooling_profile(thickness)

        feats = torch.cat([(mean_t - target) / 50.0,
                           rate / self.max_rate_c_per_min,
                           thickness / 10.0])
        trim = self.trim_net(feats)
        if self.clamp_trim:
            trim = trim.clamp(-1.0, 1.0)
        setpoint = target + 5.0 * trim

        too_fast = rate > self.max_rate_c_per_min
        if too_fast.any() and not (mean_t < 300.0).all():
            # hold the offending zones back so the ribbon cools more gently
            setpoint = setpoint + 2.0 * too_fast.float() * (rate - self.max_rate_c_per_min)
            status = torch.tensor(1)
        else:
            status = torch.tensor(0)
        return setpoint, status


def model():
    torch.manual_seed(5601)
    return LehrController().eval()


def _log(minutes, seed, jitter=1.0, base=None):
    g = torch.Generator().manual_seed(seed)
    if base is None:
        base = torch.tensor([555.0, 540.0, 515.0, 478.0, 418.0, 338.0])
    return base + jitter * (torch.rand(minutes, N_ZONES, generator=g) - 0.5)


def example_inputs():
    return (_log(48, 1), torch.tensor([6.0]))


def dynamic_shapes():
    minutes = torch.export.Dim("minutes", min=4, max=256)
    return ({0: minutes}, None)


def verify_inputs():
    surge = _log(4, 2)
    surge[3, 2] += 9.0            # zone 3 drops/jumps 9 C in one minute
    cold_fast = _log(20, 3, jitter=20.0, base=torch.full((N_ZONES,), 150.0))
    return [
        # long history (>32, windowed), standard 6 mm ribbon, gentle rates -> no hold
        example_inputs(),
        # min length 4 (whole log), thick 10 mm ribbon, zone 3 too fast on a hot lehr -> hold back
        (surge, torch.tensor([10.0])),
        # max length 256, thin 2 mm ribbon, gentle -> no hold
        (_log(256, 4), torch.tensor([2.0])),
        # 20 minutes of a cold start-up: rates too fast but every zone < 300 C -> no hold (not-all)
        (cold_fast, torch.tensor([4.0])),
    ]
