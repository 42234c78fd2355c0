"""Cantilever retaining wall: Rankine active thrust from layered backfill, then sliding,
overturning and bearing checks (status 0 ok, 1 sliding, 2 overturning, 3 bearing)."""
import math
import torch
import torch.nn as nn
from torch.export import Dim

GAMMA_W, GAMMA_CONCRETE = 9.81, 24.0


def layer_thrust(top, bottom, sigma_top, gamma, ka, saturated, height):
    """Active force [kN/m] of one layer slice and its moment about the toe."""
    t = bottom - top
    g_eff = gamma - GAMMA_W if saturated > 0.5 else gamma
    sigma_bot = sigma_top + g_eff * t
    p_soil = 0.5 * ka * (sigma_top + sigma_bot) * t
    p_water = 0.5 * GAMMA_W * t * t if saturated > 0.5 else torch.zeros(())
    arm = height - (top + t / 2.0)  # lever arm measured up from the base
    return p_soil + p_water, (p_soil + p_water) * arm, sigma_bot


class WallChecker(nn.Module):
    def __init__(self, q_allow=250.0, base_friction=0.55):
        super().__init__()
        self.q_allow, self.base_friction = q_allow, base_friction
        # learned site calibration of the friction angle
        self.phi_fix = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, layers, wall, surcharge):
        # layers (L, 4): thickness m, unit weight kN/m3, friction angle deg, saturated flag
        # wall (4,): height, base width, toe length, stem thickness [m]; surcharge (1,) kPa
        H, B, toe, stem = wall[0], wall[1], wall[2], wall[3]
        phi = layers[:, 2] + 2.0 * torch.tanh(self.phi_fix(layers / 30.0)).squeeze(1)
        ka = torch.tan(torch.deg2rad(45.0 - phi / 2.0)) ** 2
        top, sigma = torch.zeros(()), surcharge[0]
        P, Mo = torch.zeros(()), torch.zeros(())
        for i in range(layers.shape[0]):
            if layers[i, 0] <= 0:
                continue  # placeholder row in the borehole log
            bottom = torch.minimum(top + layers[i, 0], H)
            p, m, sigma = layer_thrust(top, bottom, sigma, layers[i, 1], ka[i], layers[i, 3], H)
            P, Mo, top = P + p, Mo + m, bottom
            if top >= H:
                break
        else:
            # log ends above the base: extend the last layer down to the footing
            p, m, sigma = layer_thrust(top, H, sigma, layers[-1, 1], ka[-1], layers[-1, 3], H)
            P, Mo = P + p, Mo + m
        heel = B - toe - stem  # backfill standing on the heel slab counts as resisting weight
        w_wall = GAMMA_CONCRETE * (stem * H + 0.1 * H * B)
        w_soil = layers[:, 1].mean() * H * heel
        W = w_wall + w_soil
        Mr = w_wall * (toe + stem / 2.0) + w_soil * (toe + stem + heel / 2.0)
        fs_slide, fs_ot = self.base_friction * W / P, Mr / Mo
        if fs_slide < 1.5 or fs_ot < 2.0:
            return torch.tensor(1 if fs_slide < 1.5 else 2), torch.stack([fs_slide, fs_ot, W / B])
        e = B / 2.0 - (Mr - Mo) / W
        if e <= B / 6.0:
            q_max = W / B * (1.0 + 6.0 * e / B)
        else:
            q_max = 2.0 * W / (3.0 * (B / 2.0 - e))  # heel lifts off: triangular contact
        status = torch.tensor(3) if q_max > self.q_allow else torch.tensor(0)
        return status, torch.stack([fs_slide, fs_ot, q_max])


def model():
    torch.manual_seed(6009)
    return WallChecker().eval()


def _case(thick, phi, wall, q=10.0, sat=None, gamma=19.0):
    n = len(thick)
    s = [0.0] * n if sat is None else sat
    layers = torch.tensor([[thick[i], gamma, phi[i], s[i]] for i in range(n)])
    return layers, torch.tensor(wall), torch.tensor([q])


def example_inputs():
    return _case([1.0, 1.5, 2.0], [32, 30, 34], [3.0, 2.4, 0.8, 0.9])


def dynamic_shapes():
    return ({0: Dim("layers", min=2, max=12)}, None, None)


def verify_inputs():
    return [
        _case([1.0, 1.5, 2.0], [32, 30, 34], [3.0, 2.4, 0.8, 0.9]),   # example: passes all checks
        _case([1.0, 0.5], [30, 28], [3.0, 2.4, 0.8, 0.9]),             # min layers, log too short
        _case([0.5, 0.0] * 6, [28, 29, 30, 31, 32, 33] * 2, [4.0, 3.0, 1.0, 1.0],
              sat=[0, 0, 0, 0, 1, 1] * 2),                             # max layers, saturated, gaps
        _case([2.0, 3.0], [24, 22], [4.0, 2.0, 0.6, 0.4], q=40.0),     # sliding failure
        _case([1.5, 1.5], [32, 32], [3.0, 1.2, 0.1, 0.3], q=0.0, gamma=16.0),  # overturning
        _case([2.0, 2.0], [32, 32], [4.0, 2.4, 0.1, 0.3], q=20.0, gamma=21.0),  # bearing failure
    ]
