"""Eigenray search for an underwater acoustic modem link.

The sound-speed profile comes from a CTD cast (temperature and salinity per
depth layer, Mackenzie's equation plus a small learned correction fitted
to the local water mass).  A fan of launch angles is traced layer by layer
with Snell's law: rays turn where the sound speed gets too high, bounce off
the sea surface and are lost in the sediment at the bottom.  The first ray
that passes close enough to the receiver gives the arrival time used to
schedule the modem's guard interval.
"""
import torch
import torch.nn as nn


def mackenzie_sound_speed(temp, sal, depth):
    return (1448.96 + 4.591 * temp - 5.304e-2 * temp ** 2 + 2.374e-4 * temp ** 3
            + 1.340 * (sal - 35.0) + 1.630e-2 * depth + 1.675e-7 * depth ** 2
            - 1.025e-2 * temp * (sal - 35.0) - 7.139e-13 * temp * depth ** 3)


def layer_crossing(cos_angle, c, dz):
    """Horizontal distance and travel time to cross one layer at the given grazing angle."""
    sin_angle = torch.sqrt(1.0 - cos_angle ** 2)
    return dz * cos_angle / sin_angle, dz / (sin_angle * c)


class EigenrayFinder(nn.Module):
    def __init__(self, layer_m=10.0, depth_tolerance_m=15.0, max_steps=600):
        super().__init__()
        self.layer_m = layer_m
        self.depth_tolerance_m = depth_tolerance_m
        self.max_steps = max_steps
        self.correction = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))

    def sound_speed(self, ctd):
        depth = (torch.arange(ctd.shape[0], dtype=torch.float32) + 0.5) * self.layer_m
        c = mackenzie_sound_speed(ctd[:, 0], ctd[:, 1], depth)
        feats = torch.stack([ctd[:, 0] / 20.0, ctd[:, 1] / 35.0, depth / 1000.0], dim=1)
        return c + 0.5 * torch.tanh(self.correction(feats)).squeeze(-1)

    def forward(self, ctd, launch_deg, receiver):
        # ctd: (n_layers, 2) [temp C, salinity PSU]; launch_deg: (n_rays,) grazing angles below horizontal
        # receiver: (2,) [range m, depth m]; source just under the surface
        c = self.sound_speed(ctd)
        n_layers = c.shape[0]
        rx_range, rx_depth = receiver[0], receiver[1]
        dz = self.layer_m

        found = False
        arrival = torch.zeros(1)
        eigen_angle = torch.zeros(1)
        turns = torch.zeros((), dtype=torch.long)
        surface_hits = torch.zeros((), dtype=torch.long)
        for a in range(launch_deg.shape[0]):
            xi = torch.cos(torch.deg2rad(launch_deg[a])) / c[0]
            r = torch.zeros(())
            t = torch.zeros(())
            b = 0              # index of the layer boundary the ray is on
            direction = 1      # +1 going down
            steps = 0
            while r < rx_range and steps < self.max_steps:
                steps += 1
                if direction > 0 and b == n_layers:
                    break      # into the sediment: ray lost
                if direction < 0 and b == 0:
                    direction = 1
                    surface_hits += 1
                    continue
                layer = b if direction > 0 else b - 1
                cos_l = xi * c[layer]
                if cos_l >= 1.0:
                    direction = -direction
                    turns += 1
                    continue
                dr, dt = layer_crossing(cos_l, c[layer], dz)
                r_prev, z_prev = r, b * dz
                r = r + dr
                t = t + dt
                b += direction
                if r >= rx_range:
                    frac = (rx_range - r_prev) / dr
                    z_rx = z_prev + frac * (b * dz - z_prev)
                    if (z_rx - rx_depth).abs() < self.depth_tolerance_m:
                        found = True
                        arrival = (t - (1.0 - frac) * dt).reshape(1)
                        eigen_angle = launch_deg[a].reshape(1)
                        break
            if found:
                break
        return arrival, eigen_angle, turns, surface_hits


def model():
    torch.manual_seed(5713)
    return EigenrayFinder().eval()


N_LAYERS = torch.export.Dim("n_layers", min=2, max=128)
N_RAYS = torch.export.Dim("n_rays", min=2, max=16)


def _ctd(n, mixed_m, surface_t, deep_t):
    """Isothermal mixed layer, thermocline down to deep water temperature."""
    depth = (torch.arange(n, dtype=torch.float32) + 0.5) * 10.0
    temp = torch.where(depth < mixed_m, torch.tensor(surface_t),
                       deep_t + (surface_t - deep_t) * torch.exp(-(depth - mixed_m) / 150.0))
    sal = 35.0 + 0.001 * depth
    return torch.stack([temp, sal], dim=1)


def example_inputs():
    # 800 m water, summer thermocline, fan of 8 rays, receiver at 2 km / 450 m
    return (_ctd(80, 20.0, 18.0, 4.0), torch.linspace(4.0, 18.0, 8), torch.tensor([2000.0, 450.0]))


def dynamic_shapes():
    return ({0: N_LAYERS}, {0: N_RAYS}, None)


def verify_inputs():
    return [
        # downward refraction; the third ray (8 deg) passes 450 m at 2 km -> found, both loops exit early
        example_inputs(),
        # 20 m of water: every ray hits the bottom and is lost, receiver never reached
        (_ctd(2, 50.0, 10.0, 10.0), torch.tensor([5.0, 30.0]), torch.tensor([500.0, 10.0])),
        # deep isothermal mixed layer -> surface duct: the 0.5 deg ray turns, bounces off the surface
        # and arrives near the 15 m receiver -> found on the first ray
        (_ctd(60, 400.0, 12.0, 12.0), torch.tensor([0.5, 1.0]), torch.tensor([3000.0, 15.0])),
        # 1280 m, 16 rays, receiver too deep for the range -> no eigenray, rays pass the range
        (_ctd(128, 30.0, 22.0, 3.0), torch.linspace(1.0, 16.0, 16), torch.tensor([1500.0, 1200.0])),
    ]
