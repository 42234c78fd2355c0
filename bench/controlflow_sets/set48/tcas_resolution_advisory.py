"""Simplified TCAS II threat logic: traffic advisories (TA) and resolution advisories (RA).

For each intruder: relative geometry, range tau (time to closest approach) and vertical separation.
Intruders with an immediate collision geometry produce an emergency RA straight away. In dense
airspace the intruder list is pre-filtered to those within 10 NM. The RA sense (climb/descend)
comes from the projected vertical miss distance at CPA.
Units: NM, ft, seconds; velocities in NM/s and ft/s.
"""
import torch
import torch.nn as nn


def range_tau(rel_pos, rel_vel):
    """Seconds to closest approach in the horizontal plane; inf when diverging."""
    closure = -(rel_pos[:2] * rel_vel[:2]).sum()
    if closure <= 0:
        return torch.tensor(float("inf"))
    return (rel_pos[:2] * rel_pos[:2]).sum() / closure


def vertical_sense(rel_pos, rel_vel, tau):
    """+1 climb / -1 descend: choose the sense that increases the projected miss distance."""
    alt_at_cpa = rel_pos[2] + rel_vel[2] * tau
    if alt_at_cpa > 0:
        return torch.tensor(-1.0)  # intruder will be above -> descend
    return torch.tensor(1.0)


class TCAS(nn.Module):
    def __init__(self, ta_tau=40.0, ra_tau=25.0, dense_traffic=16):
        super().__init__()
        self.ta_tau = ta_tau
        self.ra_tau = ra_tau
        self.dense_traffic = dense_traffic
        self.alt_window = 1200.0
        self.intent = nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, own, intruders):
        # own: (6,) x, y (NM), alt (ft), vx, vy (NM/s), vs (ft/s); intruders: (N, 6) same layout
        if intruders.shape[0] > self.dense_traffic:
            dist = torch.linalg.vector_norm(intruders[:, :2] - own[:2], dim=1)
            intruders = intruders[dist < 10.0]

        advisory = torch.tensor(0.0)     # 0 clear, 1 TA, 2 RA
        senses = []
        min_tau = torch.tensor(999.0)
        for i in range(intruders.shape[0]):
            rel_pos = intruders[i, :3] - own[:3]
            rel_vel = intruders[i, 3:] - own[3:]
            if torch.abs(rel_pos[2]) > self.alt_window and rel_pos[2] * rel_vel[2] >= 0:
                continue  # well separated vertically and not converging
            horiz = torch.linalg.vector_norm(rel_pos[:2])
            if horiz < 0.1 and torch.abs(rel_pos[2]) < 100.0:
                # collision geometry right now: maximum-rate RA away from the intruder
                sense = vertical_sense(rel_pos, rel_vel, torch.zeros(()))
                return torch.tensor(3.0), sense * 2500.0, torch.zeros(())
            tau = range_tau(rel_pos, rel_vel)
            min_tau = torch.minimum(min_tau, tau)
            if tau < self.ra_tau:
                advisory = torch.tensor(2.0)
                senses.append(vertical_sense(rel_pos, rel_vel, tau))
            elif tau < self.ta_tau:
                advisory = torch.maximum(advisory, torch.tensor(1.0))

        if len(senses) == 0:
            rate = torch.zeros(())
        elif len(senses) > 1 and (torch.stack(senses) > 0).any() and (torch.stack(senses) < 0).any():
            rate = torch.zeros(())  # conflicting senses: "maintain vertical speed, crossing"
        else:
            rate = senses[0] * 1500.0
        urgency = torch.sigmoid(self.intent(intruders.mean(dim=0) - own)).squeeze()
        return advisory, rate, torch.clamp(min_tau, max=999.0) * (0.5 + urgency)


def model():
    torch.manual_seed(48011)
    return TCAS().eval()


OWN = torch.tensor([0.0, 0.0, 10000.0, 0.07, 0.0, 0.0])   # 252 kt eastbound, level


def _traffic(rows):
    return torch.tensor(rows, dtype=torch.float32)


def example_inputs():
    return OWN.clone(), _traffic([
        [4.0, 0.0, 10300.0, -0.07, 0.0, 0.0],    # head-on, 300 ft above: tau ~28.6 s -> TA
        [12.0, 2.0, 14000.0, -0.05, 0.0, 0.0],   # far above, level -> skipped
        [-3.0, 0.0, 9800.0, 0.02, 0.0, 0.0],     # behind, slower -> diverging, tau inf
    ])


def dynamic_shapes():
    return (None, {0: torch.export.Dim("intruders", min=2, max=32)})


def verify_inputs():
    far = [[30.0 + i, 5.0, 10000.0, 0.0, 0.0, 0.0] for i in range(18)]
    return [
        example_inputs(),  # TA only, vertical-window continue, diverging tau (early return in range_tau)
        (OWN.clone(), _traffic([[2.5, 0.0, 10400.0, -0.07, 0.0, 0.0],
                                [2.0, 0.0, 9600.0, -0.07, 0.0, 0.0]])),  # two RAs with opposite senses -> crossing/maintain
        (OWN.clone(), _traffic([[2.5, 0.0, 9700.0, -0.07, 0.0, 0.0]] + far)),  # 19 intruders -> 10 NM filter; single RA climb
        (OWN.clone(), _traffic([[8.0, 0.0, 11500.0, -0.07, 0.0, -10.0],
                                [0.05, 0.0, 10050.0, 0.07, 0.0, 0.0],
                                [3.0, 0.0, 10000.0, -0.07, 0.0, 0.0]])),  # 1500 ft above but descending (kept); collision -> early return
        (OWN.clone(), _traffic([[3.0, 0.0, 10200.0, -0.07, 0.0, 0.0],
                                [3.2, 0.5, 10500.0, -0.07, 0.0, 0.0]])),  # two RAs, same (descend) sense
    ]
