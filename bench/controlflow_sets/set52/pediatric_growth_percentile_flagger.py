"""Well-child clinic growth chart screen: WHO-style LMS weight-for-age and
length-for-age z-scores for a child's visit history, flags downward crossing of
major percentile lines between visits (faltering growth), and a small
growth-velocity risk head."""
import torch
import torch.nn as nn
from torch.export import Dim


def interp_lms(table, age_months):
    a = age_months.clamp(0.0, float(table.shape[0] - 1))
    lo = a.floor().long().clamp(max=table.shape[0] - 2)
    frac = (a - lo.float())[:, None]
    return table[lo] * (1.0 - frac) + table[lo + 1] * frac


def lms_z(x, lms):
    L, M, S = lms.unbind(-1)
    return ((x / M) ** L - 1.0) / (L * S)


def flag_visit(prev_z, z, gap_months):
    if gap_months < 1.0:
        return None  # same-week recheck, too noisy to compare
    drop = prev_z - z
    if drop > 1.34 and z < -1.0:
        return torch.tensor(2)  # crossed two major percentile lines
    elif drop > 0.67 or z < -2.0:
        return torch.tensor(1)
    return torch.tensor(0)


class GrowthFlagger(nn.Module):
    def __init__(self):
        super().__init__()
        ages = torch.arange(37, dtype=torch.float32)
        # smooth stand-ins for the WHO 0-36 month weight and length LMS tables
        w_m = 3.3 + 0.75 * ages - 0.011 * ages ** 2
        l_m = 49.9 + 2.6 * ages - 0.035 * ages ** 2
        self.register_buffer("weight_lms", torch.stack([0.25 - 0.005 * ages, w_m, 0.14 - 0.0009 * ages], 1))
        self.register_buffer("length_lms", torch.stack([torch.ones(37), l_m, 0.038 - 0.0002 * ages], 1))
        self.velocity_head = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))
        self.min_visits_for_trend = 3

    def forward(self, visits):
        # visits: [V, 3] = age months, weight kg, length cm (chronological)
        age, weight, length = visits.unbind(1)
        wz = lms_z(weight, interp_lms(self.weight_lms, age))
        lz = lms_z(length, interp_lms(self.length_lms, age))
        span = (age[-1] - age[0]).clamp(min=1.0)
        velocity = torch.stack([(wz[-1] - wz[0]) / span, (lz[-1] - lz[0]) / span, wz.min()])
        risk = torch.sigmoid(self.velocity_head(velocity)).squeeze(0)
        if visits.shape[0] < self.min_visits_for_trend:
            return wz, lz, torch.tensor(0), risk
        flags = []
        for i in range(1, visits.shape[0]):
            f = flag_visit(wz[i - 1], wz[i], age[i] - age[i - 1])
            if f is None:
                continue
            flags.append(f)
        level = torch.stack(flags).max() if flags else torch.tensor(0)
        return wz, lz, level, risk


def model():
    torch.manual_seed(5207)
    return GrowthFlagger().eval()


def _child(ages, wz_path, seed):
    g = torch.Generator().manual_seed(seed)
    ages = torch.tensor(ages, dtype=torch.float32)
    w_m = 3.3 + 0.75 * ages - 0.011 * ages ** 2
    l_m = 49.9 + 2.6 * ages - 0.035 * ages ** 2
    weight = w_m * (1.0 + 0.12 * torch.tensor(wz_path, dtype=torch.float32))
    length = l_m * (1.0 + 0.01 * torch.randn(len(ages), generator=g))
    return torch.stack([ages, weight, length], 1)


def example_inputs():
    return (_child([0.5, 2, 4, 6, 9, 12, 15, 18], [0.2, 0.1, 0.0, 0.1, 0.0, -0.1, 0.0, 0.1], 1),)


def dynamic_shapes():
    return ({0: Dim("visits", min=2, max=48)},)


def verify_inputs():
    long_ages = [0.5 * i + 0.2 for i in range(48)]
    long_path = [0.1 * ((i % 5) - 2) for i in range(48)]
    return [
        example_inputs(),                                                    # tracking the curve -> all level 0
        (_child([1, 2], [0.0, -1.0], 2),),                                   # min visits -> too short, early return
        (_child(long_ages, long_path, 3),),                                  # max visits, 0.5 mo spacing -> some gaps < 1 skipped
        (_child([1, 4, 7, 10], [0.5, -1.6, -1.8, -1.9], 4),),                # fell across two lines (level 2)
        (_child([2, 5, 8, 11, 14], [0.0, -0.7, -1.0, -1.8, -2.2], 5),),      # moderate drop / below -2 -> level 1
        (_child([3.0, 3.2, 3.5], [0.0, 0.0, 0.1], 6),),                      # all rechecks < 1 month -> no flags -> default 0
    ]
