"""Permafrost active-layer thaw depth with the layered Stefan solution.

Daily air temperatures are converted to surface thawing degree-days with an
n-factor.  The thaw front moves through a stack of soil layers (thickness,
volumetric ice/water content, thawed conductivity): a layer is thawed
completely once the accumulated thawing index exceeds what the layered
Stefan equation needs for it, and the front position inside the current
layer comes from the quadratic Stefan relation with the thermal resistance
of the thawed layers above.  If the front reaches the bottom of the stack a
talik has formed and the season stops being tracked.
"""
import torch
import torch.nn as nn

LATENT_J_M3 = 334.0e6   # latent heat of fusion per m3 of water
SECONDS_PER_DAY = 86400.0


class ThawDepthStepper(nn.Module):
    def __init__(self):
        super().__init__()
        self.n_factor_snow_free = 0.9
        self.n_factor_early = 0.6      # snow still on the ground in short records
        self.early_record_days = 60

    def layer_index_needed(self, thick, water, k, r_above):
        """Thawing index (C s) to thaw a whole layer below thermal resistance r_above."""
        lw = LATENT_J_M3 * water
        return lw * (r_above * thick + thick * thick / (2.0 * k))

    def forward(self, air_temp, layers):
        days = air_temp.shape[0]
        n_factor = self.n_factor_early if days < self.early_record_days else self.n_factor_snow_free
        thick, water, k = layers[:, 0], layers[:, 1], layers[:, 2]
        n_layers = layers.shape[0]

        index = torch.zeros(())       # surface thawing index left to spend (C s)
        layer = 0
        r_above = torch.zeros(())     # thermal resistance of fully thawed layers
        top = torch.zeros(())         # depth of the current layer's top
        depth = torch.zeros(())
        series = []
        talik = False
        for d in range(days):
            t_air = air_temp[d]
            if t_air <= 0.0:
                series.append(depth)
                continue  # no thaw on freezing days (refreeze ignored in summer)
            index = index + n_factor * t_air * SECONDS_PER_DAY
            need = self.layer_index_needed(thick[layer], water[layer], k[layer], r_above)
            while index >= need:
                index = index - need
                r_above = r_above + thick[layer] / k[layer]
                top = top + thick[layer]
                layer += 1
                if layer == n_layers:
                    talik = True
                    break
                need = self.layer_index_needed(thick[layer], water[layer], k[layer], r_above)
            if talik:
                depth = top
                series.append(depth)
                break
            # partial thaw inside the current layer: z^2/(2k) + R z = I / (L w)
            kk = k[layer]
            rhs = index / (LATENT_J_M3 * water[layer])
            z = kk * (-r_above + torch.sqrt(r_above * r_above + 2.0 * rhs / kk))
            depth = top + z
            series.append(depth)

        out = torch.stack(series)
        if out.shape[0] < days:
            out = torch.cat([out, out[-1:].expand(days - out.shape[0])])
        return out, torch.tensor(layer), torch.tensor(int(talik))


def model():
    torch.manual_seed(5909)
    return ThawDepthStepper().eval()


def make_season(days, peak_c, seed, start_c=-4.0):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(days, dtype=torch.float32)
    clim = start_c + (peak_c - start_c) * torch.sin(torch.pi * t / max(days - 1, 1))
    return clim + 2.0 * torch.randn(days, generator=g)


def make_soil(rows):
    return torch.tensor(rows, dtype=torch.float32)


def example_inputs():
    # 120-day summer; peat over silt over ice-rich silt over gravel
    soil = make_soil([[0.15, 0.60, 0.5], [0.40, 0.35, 1.2], [0.60, 0.55, 1.4], [1.50, 0.15, 2.2]])
    return make_season(120, 14.0, 1), soil


def dynamic_shapes():
    days = torch.export.Dim("days", min=20, max=240)
    layers = torch.export.Dim("layers", min=2, max=6)
    return ({0: days}, {0: layers})


def verify_inputs():
    # example: front passes into the third layer, no talik; snow-free n-factor
    ex = example_inputs()
    # 20-day early record (snow n-factor), 2 thin layers of dry gravel -> talik, break
    early = (make_season(20, 16.0, 2, start_c=3.0),
             make_soil([[0.2, 0.05, 2.0], [0.3, 0.05, 2.0]]))
    # 240 days, 6 ice-rich layers: warm summer, stays inside the stack
    soil6 = make_soil([[0.1, 0.7, 0.4], [0.2, 0.6, 0.8], [0.3, 0.5, 1.1],
                       [0.4, 0.5, 1.3], [0.5, 0.6, 1.3], [2.0, 0.5, 1.5]])
    long = (make_season(240, 18.0, 3, start_c=-10.0), soil6)
    return [ex, early, long]
