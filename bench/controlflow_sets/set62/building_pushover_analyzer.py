"""Seismic assessment: nonlinear static (pushover) analysis of a shear building.

Each storey is an elastic-perfectly-plastic spring (with a small post-yield
stiffness). The base shear is increased step by step with a lateral load
pattern (uniform for low-rise, inverted triangle otherwise). Storeys yield
when their shear exceeds the yield shear; the step of first yield is
recorded; optional P-delta amplification increases drifts. The push stops at
the collapse drift limit or at the maximum base shear. The capacity curve
(base shear vs roof displacement) is kept as a list and integrated for the
dissipated energy; a small learned head maps the result to a damage index.

Kind: X.  Constructs: 1, 2, 3, 4, 6, 7, 8, 9.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class PushoverAnalyzer(nn.Module):
    def __init__(self, d_shear=30.0, max_base_shear=4000.0, post_yield_ratio=0.05,
                 collapse_drift=0.03, p_delta=True, storey_weight=500.0):
        super().__init__()
        self.damage_head = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
        self.d_shear = d_shear
        self.max_base_shear = max_base_shear
        self.post_yield_ratio = post_yield_ratio
        self.collapse_drift = collapse_drift
        self.p_delta = p_delta
        self.storey_weight = storey_weight

    def load_pattern(self, heights):
        if heights.shape[0] <= 3:
            weights = torch.ones_like(heights)  # low-rise: uniform
        else:
            weights = torch.cumsum(heights, dim=0)  # inverted triangle (first-mode like)
        return weights / weights.sum()

    def storey_drifts(self, shear, stiffness, yield_shear, yielded, heights):
        elastic = shear / stiffness
        plastic = yield_shear / stiffness + (shear - yield_shear) / (stiffness * self.post_yield_ratio)
        drift = torch.where(yielded, plastic, elastic)
        if self.p_delta:
            # gravity load above each storey amplifies drift: 1 / (1 - theta)
            above = self.storey_weight * torch.flip(torch.cumsum(torch.ones_like(heights), 0), [0])
            theta = (above * drift / (shear.clamp(min=1e-6) * heights)).clamp(max=0.5)
            drift = drift / (1.0 - theta)
        return drift

    def forward(self, stiffness, yield_shear, heights):
        # stiffness [S] kN/m, yield_shear [S] kN, heights [S] m; storey 0 is the ground storey
        pattern = self.load_pattern(heights)
        yielded = torch.zeros_like(stiffness, dtype=torch.bool)
        base = torch.zeros(())
        first_yield = torch.tensor(-1.0)
        curve = [torch.zeros(2)]
        while base < self.max_base_shear:
            base = base + self.d_shear
            shear = torch.flip(torch.cumsum(torch.flip(pattern * base, [0]), 0), [0])  # shear in each storey
            newly = (shear > yield_shear) & ~yielded
            if newly.any():
                if not yielded.any():
                    first_yield = base.clone()
                yielded = yielded | newly
            drift = self.storey_drifts(shear, stiffness, yield_shear, yielded, heights)
            curve.append(torch.stack([base, drift.sum()]))
            if (drift / heights).max() > self.collapse_drift:
                break  # mechanism: collapse prevention limit exceeded

        curve = torch.stack(curve)
        energy = (0.5 * (curve[1:, 0] + curve[:-1, 0]) * (curve[1:, 1] - curve[:-1, 1])).sum()
        roof = curve[-1, 1]
        feats = torch.stack([base / 1000.0, roof / heights.sum() * 100.0, yielded.float().mean(),
                             energy / 1000.0])
        damage = torch.sigmoid(self.damage_head(feats)).squeeze()
        return torch.stack([base, roof, first_yield, energy]), yielded.float(), damage


def model():
    torch.manual_seed(639)
    return PushoverAnalyzer().eval()


def _building(stiffness, yield_shear, heights):
    return torch.tensor(stiffness), torch.tensor(yield_shear), torch.tensor(heights)


def example_inputs():
    # 5-storey RC frame with a soft first storey
    return _building([40000.0, 80000.0, 80000.0, 70000.0, 60000.0],
                     [905.0, 1500.0, 1400.0, 1200.0, 900.0],
                     [4.2, 3.2, 3.2, 3.2, 3.2])


def dynamic_shapes():
    s = Dim("storeys", min=2, max=20)
    return ({0: s}, {0: s}, {0: s})


def verify_inputs():
    return [
        example_inputs(),                                            # soft ground storey yields alone, then the
                                                                     # collapse drift limit breaks the loop
        _building([90000.0, 90000.0], [5005.0, 4000.0], [3.5, 3.0]),  # stiff, strong 2-storey: never yields,
                                                                     # loop ends at max base shear
        _building([50000.0, 50000.0, 45000.0], [1305.0, 1250.0, 800.0], [3.0, 3.0, 3.0]),  # 3 storeys: uniform
                                                                     # pattern; ground storey yields, collapse
        _building([120000.0] * 8, [2615.0, 2500.0, 2400.0, 2200.0, 1900.0, 1500.0, 1000.0, 500.0],
                  [3.5] + [3.0] * 7),                                # 8 storeys: triangle pattern; yielding spreads
                                                                     # over later steps (new yields after the first)
    ]
