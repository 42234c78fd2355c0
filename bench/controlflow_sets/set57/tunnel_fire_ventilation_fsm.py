"""Jet-fan supervisor of a one-way road tunnel.

Every few seconds the SCADA delivers temperature, CO and smoke opacity for
each ventilation zone (zones numbered in the direction of traffic).  A
state machine moves between normal ventilation, pollution boost, fire
suspected and fire.  A fire has to be seen for a few consecutive scans to
be confirmed (hot truck exhausts are a classic false alarm); once confirmed
the supervisor latches, stops scanning and commands longitudinal smoke
control: every fan blows with the traffic so that the smoke stays
downstream of the stopped cars, at a speed set from the estimated fire size.
"""
import torch
import torch.nn as nn

NORMAL, POLLUTION, FIRE_SUSPECT, FIRE = 0, 1, 2, 3


class TunnelVentilation(nn.Module):
    def __init__(self, confirm_scans=3, co_boost_ppm=150.0, co_release_ppm=100.0):
        super().__init__()
        self.confirm_scans = confirm_scans
        self.co_boost_ppm = co_boost_ppm
        self.co_release_ppm = co_release_ppm
        # [peak temp / 100, peak opacity * 10] -> fraction of critical velocity needed upstream
        self.fire_size_net = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 1), nn.Sigmoid())

    def hottest_upstream_zone(self, scan):
        # first zone (against traffic) showing a fire signature, -1 if none
        for z in range(scan.shape[0]):
            if scan[z, 0] > 70.0 or (scan[z, 2] > 0.02 and scan[z, 0] > 40.0):
                return z
        return -1

    def fan_plan(self, mode, fire_zone, scan):
        n_zones = scan.shape[0]
        if mode == FIRE:
            peak = torch.stack([scan[:, 0].max() / 100.0, scan[:, 2].max() * 10.0])
            upstream = 0.6 + 0.4 * self.fire_size_net(peak).squeeze(-1)
            fans = torch.ones(n_zones)
            fans[:fire_zone] = upstream
            return fans
        if mode == POLLUTION:
            return (scan[:, 1] / 200.0).clamp(0.3, 1.0)
        return torch.full((n_zones,), 0.1)

    def forward(self, scans):
        # scans: (n_scans, n_zones, 3) [temperature C, CO ppm, opacity 1/m]
        mode = NORMAL
        suspect_count = 0
        fire_zone = -1
        modes = []
        for t in range(scans.shape[0]):
            scan = scans[t]
            hot = self.hottest_upstream_zone(scan)
            co = scan[:, 1].max()
            if mode == NORMAL or mode == POLLUTION:
                if hot >= 0:
                    mode = FIRE_SUSPECT
                    suspect_count = 1
                elif co > self.co_boost_ppm:
                    mode = POLLUTION
                elif mode == POLLUTION and co < self.co_release_ppm:
                    mode = NORMAL
            else:                          # FIRE_SUSPECT (FIRE breaks out below)
                if hot >= 0:
                    suspect_count += 1
                    if suspect_count >= self.confirm_scans:
                        mode = FIRE
                        fire_zone = hot
                else:
                    mode = NORMAL          # false alarm
                    suspect_count = 0
            modes.append(torch.tensor(mode))
            if mode == FIRE:
                break
        fans = self.fan_plan(mode, fire_zone, scan)
        return torch.stack(modes), fans, torch.tensor(fire_zone)


def model():
    torch.manual_seed(5719)
    return TunnelVentilation().eval()


N_SCANS = torch.export.Dim("n_scans", min=2, max=240)
N_ZONES = torch.export.Dim("n_zones", min=2, max=32)


def _scans(n, zones, seed, co_ramp=None, events=()):
    """Quiet tunnel; co_ramp = (start, end, peak ppm); events = (t0, t1, zone, temp, opacity)."""
    g = torch.Generator().manual_seed(seed)
    s = torch.zeros(n, zones, 3)
    s[:, :, 0] = 18.0 + torch.rand(n, zones, generator=g)
    s[:, :, 1] = 30.0 + 5.0 * torch.rand(n, zones, generator=g)
    s[:, :, 2] = 0.002 * torch.rand(n, zones, generator=g)
    if co_ramp is not None:
        a, b, peak = co_ramp
        s[a:b, :, 1] += peak * torch.sin(torch.linspace(0.0, 3.1416, b - a))[:, None]
    for t0, t1, z, temp, opacity in events:
        s[t0:t1, z, 0] = temp
        s[t0:t1, z, 2] = opacity
    return s


def example_inputs():
    # rush-hour CO hump (pollution boost, then release), later a car fire in zone 7
    return (_scans(60, 12, 1, co_ramp=(5, 30, 200.0), events=[(40, 60, 7, 180.0, 0.05)]),)


def dynamic_shapes():
    return ({0: N_SCANS, 1: N_ZONES},)


def verify_inputs():
    long_run = _scans(240, 32, 3, events=[(20, 21, 5, 75.0, 0.0), (50, 60, 9, 30.0, 0.05)])
    long_run[150:, :, 1] += 300.0          # jam builds up and never clears
    return [
        # NORMAL -> POLLUTION -> NORMAL -> FIRE_SUSPECT -> FIRE (zone 7), loop breaks at the fire
        example_inputs(),
        # 2 scans, 2 zones, quiet -> stays NORMAL, idle fans
        (_scans(2, 2, 2),),
        # 240 scans, 32 zones: a hot truck exhaust for one scan (suspect, then false alarm),
        # smoky but cool zone (opacity without heat), pollution boost until the end
        (long_run,),
        # smouldering fire (warm + smoky) in zone 2 during pollution boost -> suspect -> FIRE
        (_scans(30, 6, 4, co_ramp=(0, 30, 250.0), events=[(10, 30, 2, 55.0, 0.04)]),),
    ]
