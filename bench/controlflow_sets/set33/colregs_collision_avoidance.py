"""COLREGs-aware collision avoidance advisor for an autonomous surface vessel.

own: [x, y, vx, vy] of our ship (nautical miles, knots / 60 -> nm per minute),
targets: [K, 4] AIS tracks of other vessels (K dynamic).
For every target the closest point of approach (DCPA / TCPA) is computed; safe
or opening targets are skipped, an imminent collision returns an emergency
order at once, the rest are classified (head-on, crossing give-way, crossing
stand-on, overtaking).  For the vessels we must give way to, the advisor turns
to starboard in steps until every one of them passes clear or the turn limit is
reached.  A small learned head picks a speed factor.
Returns (course change degrees, speed factor, risk per target [K]).
"""
import math

import torch
import torch.nn as nn
from torch.export import Dim

HEAD_ON, GIVE_WAY, STAND_ON, OVERTAKING = 0, 1, 2, 3


def cpa(rel_pos, rel_vel):
    vv = (rel_vel * rel_vel).sum()
    if vv.sqrt() < 0.01:
        return torch.linalg.norm(rel_pos), torch.zeros(())  # (almost) same velocity: range never changes
    tcpa = -(rel_pos * rel_vel).sum() / vv
    dcpa = torch.linalg.norm(rel_pos + rel_vel * tcpa)
    return dcpa, tcpa


def wrap(angle):
    return torch.remainder(angle + math.pi, 2 * math.pi) - math.pi


def encounter(own, tgt):
    own_course = torch.atan2(own[2], own[3])          # nautical convention: 0 = north, clockwise
    tgt_course = torch.atan2(tgt[2], tgt[3])
    bearing = torch.atan2(tgt[0] - own[0], tgt[1] - own[1])
    rel_bearing = wrap(bearing - own_course)
    course_diff = wrap(tgt_course - own_course)
    if course_diff.abs() > math.radians(170) and rel_bearing.abs() < math.radians(10):
        return HEAD_ON
    if rel_bearing.abs() > math.radians(112.5):
        return OVERTAKING  # target is abaft our beam: it is overtaking us, we stand on
    if rel_bearing > 0:
        return GIVE_WAY    # target on our starboard side
    return STAND_ON


def rotate(v, angle):
    c, s = torch.cos(angle), torch.sin(angle)
    return torch.stack([c * v[0] + s * v[1], -s * v[0] + c * v[1]])  # clockwise = starboard


class ColregsAdvisor(nn.Module):
    def __init__(self, safe_dcpa=1.0, horizon=30.0, step_deg=5.0, max_turn_deg=57.5):
        super().__init__()
        self.safe_dcpa = safe_dcpa
        self.horizon = horizon
        self.step = math.radians(step_deg)
        self.max_turn = math.radians(max_turn_deg)
        self.speed_head = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))

    def worst_dcpa(self, own, give_way, turn):
        vel = rotate(own[2:], turn)
        worst = torch.tensor(float("inf"))
        for tgt in give_way:
            d, _ = cpa(tgt[:2] - own[:2], tgt[2:] - vel)
            worst = torch.minimum(worst, d)
        return worst

    def forward(self, own, targets):
        risks, give_way = [], []
        for k in range(targets.shape[0]):
            tgt = targets[k]
            dcpa, tcpa = cpa(tgt[:2] - own[:2], tgt[2:] - own[2:])
            if tcpa <= 0 or tcpa > self.horizon or dcpa > self.safe_dcpa:
                risks.append(torch.zeros(()))
                continue  # opening, far in the future, or passing clear
            if dcpa < 0.1 and tcpa < 2.0:
                # too late for the rules: hard to starboard, full astern
                return torch.tensor(90.0), torch.tensor(0.0), torch.ones(targets.shape[0])
            risks.append((1 - dcpa / self.safe_dcpa) * torch.exp(-tcpa / 10))
            kind = encounter(own, tgt)
            if kind == HEAD_ON or kind == GIVE_WAY:
                give_way.append(tgt)

        turn = torch.zeros(())
        if give_way:
            while self.worst_dcpa(own, give_way, turn) < self.safe_dcpa:
                turn = turn + self.step
                if turn >= self.max_turn:
                    break  # cannot clear by turning alone: speed head will slow us down
        risk = torch.stack(risks)
        speed = torch.sigmoid(self.speed_head(torch.stack([turn, risk.max(), torch.tensor(float(len(give_way)))])))
        return torch.rad2deg(turn), speed.squeeze(0), risk


def model():
    torch.manual_seed(29)
    return ColregsAdvisor().eval()


def _ship(x, y, course_deg, knots):
    c = math.radians(course_deg)
    v = knots / 60.0
    return [x, y, v * math.sin(c), v * math.cos(c)]


OWN = torch.tensor(_ship(0.0, 0.0, 0.0, 12.0))  # heading north at 12 kn


def example_inputs():
    return (OWN, torch.tensor([
        _ship(3.0, 3.0, 270.0, 12.0),   # crossing from starboard: we give way
        _ship(-2.0, 6.0, 180.0, 8.0),   # passing well clear to port
        _ship(4.0, -3.0, 90.0, 10.0),   # astern and opening
    ]))


def dynamic_shapes():
    return (None, {0: Dim("targets", min=2, max=64)})


def verify_inputs():
    return [
        example_inputs(),                                            # one give-way crossing: a few 5-degree steps
        (OWN, torch.tensor([_ship(0.0, 0.5, 180.0, 10.0),
                            _ship(5.0, 5.0, 0.0, 12.0)])),           # head-on at 0.5 nm: emergency early return
        (OWN, torch.tensor([_ship(0.1, 8.0, 180.0, 12.0),
                            _ship(-3.0, 3.0, 90.0, 12.0)])),         # head-on (give way) + crossing from port (stand on)
        (OWN, torch.tensor([_ship(0.1, -1.0, 2.0, 20.0),
                            _ship(6.0, 0.0, 0.0, 12.0)])),           # being overtaken from astern; a parallel ship at same
                                                                     # velocity (zero relative motion): nothing to do
        (OWN, torch.tensor([_ship(2.6, 1.5, 257.0, 35.5),
                            _ship(2.5, 2.0, 270.0, 25.0),
                            _ship(-4.0, 4.0, 100.0, 10.0)])),        # fast crossers from starboard: turn limit -> break
        (OWN, torch.tensor([_ship(-5.0, -5.0, 0.0, 12.0),
                            _ship(8.0, 0.0, 0.0, 6.0)])),            # nobody on a closing course: no give-way list
    ]
