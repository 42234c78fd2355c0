"""Tension distribution for a cable-driven parallel robot (stadium camera style).

The platform hangs from M winches mounted on the frame.  For a platform
position and the external force on it (gravity plus payload), the cable
tensions must balance the force while staying between a minimum tension
(to avoid sag; learned from cable length) and the winch limit.  The
closed-form "mean tension + pseudo-inverse" solution is repeated while
some cable violates its limits: the worst cable is clamped to its bound
and the rest re-solved, until feasible or too few free cables are left.
Before that, cables that run almost parallel are flagged as interfering.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

OK, INFEASIBLE, INTERFERENCE = 0, 1, 2


class TensionDistributor(nn.Module):
    def __init__(self, t_max=3000.0, min_angle_cos=0.9995, dof=3):
        super().__init__()
        self.t_max = t_max
        self.min_angle_cos = min_angle_cos
        self.dof = dof
        # sag model: cable length (m) -> extra minimum tension (N)
        self.sag_net = nn.Sequential(nn.Linear(1, 8), nn.Tanh(), nn.Linear(8, 1))

    def cables_interfere(self, u):
        m = u.shape[0]
        clash = False
        for i in range(m):
            for j in range(i + 1, m):
                if torch.dot(u[i], u[j]) > self.min_angle_cos:
                    clash = True
                    break
            if clash:
                break
        return clash

    def forward(self, anchors, position, force):
        # anchors: (n_cables, 3) winch exit points; position: (3,) platform; force: (3,) N on the platform
        d = anchors - position
        lengths = d.norm(dim=1)
        u = d / lengths[:, None]
        if self.cables_interfere(u):
            return torch.zeros(anchors.shape[0]), torch.tensor(INTERFERENCE)

        t_min = 50.0 + 20.0 * F.softplus(self.sag_net(lengths[:, None] / 10.0)).squeeze(-1)
        t_max = torch.full_like(t_min, self.t_max)
        a = u.t()                                   # (3, n_cables): a @ t = -force
        free = torch.ones(anchors.shape[0], dtype=torch.bool)
        tension = 0.5 * (t_min + t_max)

        status = OK
        violation = torch.ones(())
        while violation > 0:
            a_free = a[:, free]
            rhs = -force - a[:, ~free] @ tension[~free]
            t_mean = 0.5 * (t_min[free] + t_max[free])
            tension[free] = t_mean + torch.linalg.pinv(a_free) @ (rhs - a_free @ t_mean)

            over = torch.where(free, torch.maximum(t_min - tension, tension - t_max), torch.zeros_like(tension))
            violation = over.max()
            if violation > 0:
                k = int(torch.argmax(over))
                tension[k] = t_min[k] if tension[k] < t_min[k] else t_max[k]
                free[k] = False
                if int(free.sum()) < self.dof:
                    status = INFEASIBLE
                    break
        return tension, torch.tensor(status)


def model():
    torch.manual_seed(5715)
    return TensionDistributor().eval()


N_CABLES = torch.export.Dim("n_cables", min=3, max=12)

_CUBE_TOP = torch.tensor([[0.0, 0.0, 10.0], [20.0, 0.0, 10.0], [20.0, 20.0, 10.0], [0.0, 20.0, 10.0]])
_CUBE_BOTTOM = _CUBE_TOP * torch.tensor([1.0, 1.0, 0.0])
GRAVITY = torch.tensor([0.0, 0.0, -9.81])


def example_inputs():
    # 8-cable frame (4 top, 4 bottom corners), 200 kg camera rig off-centre, high up
    anchors = torch.cat([_CUBE_TOP, _CUBE_BOTTOM])
    return (anchors, torch.tensor([6.0, 5.0, 7.0]), 200.0 * GRAVITY)


def dynamic_shapes():
    return ({0: N_CABLES}, None, None)


def verify_inputs():
    eight = torch.cat([_CUBE_TOP, _CUBE_BOTTOM])
    ang = torch.arange(12, dtype=torch.float32) * (2.0 * torch.pi / 12.0)
    ring = torch.stack([10.0 + 10.0 * torch.cos(ang), 10.0 + 10.0 * torch.sin(ang),
                        10.0 * (torch.arange(12) % 2).float()], dim=1)
    return [
        # one top cable over the winch limit and the bottom cables slack -> five clamps
        # (while loop runs 6 times), then feasible
        example_inputs(),
        # light rig in the centre: the first closed-form solution is already feasible
        (eight, torch.tensor([10.0, 10.0, 5.0]), 60.0 * GRAVITY),
        # 3 cables from above, very heavy load -> tensions exceed winch limits, too few free -> infeasible
        (_CUBE_TOP[:3], torch.tensor([12.0, 8.0, 4.0]), 900.0 * GRAVITY),
        # 12 cables around a ring, light load with a sideways push -> feasible at once
        (ring, torch.tensor([9.0, 11.5, 5.0]), torch.tensor([150.0, -80.0, -200.0])),
        # an extra winch mounted just above the first top corner: its cable runs almost parallel
        # to that corner's cable -> interference, early exit from the nested pair check
        (torch.cat([_CUBE_TOP, torch.tensor([[0.0, 0.0, 10.5]])]), torch.tensor([0.5, 0.5, 5.0]), 20.0 * GRAVITY),
    ]
