"""Onboard train speed supervision (simplified ETCS-style braking curves).

For each upcoming speed restriction (distance ahead, target speed) the
supervisor computes the highest speed from which the train can still brake to
the target, using a deceleration estimated by a small adhesion network from the
rail condition and corrected for the gradient. Restrictions already passed are
ignored. The current speed is compared with the resulting permitted speed to
issue a command: 0 none, 1 warning, 2 service brake, 3 emergency brake.

Kind T. Constructs: 1 (if/elif/else chain on tensor comparisons), 2 (branches
assign the same variable), 5 (for over the dynamic number of restrictions,
append + stack), 6 (continue), 7 (adhesion submodule with its own logic),
9 (`self.training` ternary in eval mode, static config).
"""
import torch
import torch.nn as nn

NONE, WARNING, SERVICE_BRAKE, EMERGENCY_BRAKE = 0, 1, 2, 3


class AdhesionEstimator(nn.Module):
    """Safe braking deceleration (m/s^2) from [speed, gradient permille, rail condition]."""

    def __init__(self, hidden=16, min_decel=0.35, max_decel=1.0):
        super().__init__()
        self.min_decel = min_decel
        self.max_decel = max_decel
        self.net = nn.Sequential(nn.Linear(3, hidden), nn.Tanh(), nn.Linear(hidden, 1))
        self.dropout = nn.Dropout(0.1)

    def forward(self, state):
        feats = state / torch.tensor([50.0, 20.0, 1.0])
        feats = self.dropout(feats) if self.training else feats
        frac = torch.sigmoid(self.net(feats)) * state[2].clamp(0.0, 1.0)
        return self.min_decel + (self.max_decel - self.min_decel) * frac


class BrakingSupervisor(nn.Module):
    def __init__(self, line_speed=44.0, warning_margin=1.5, service_margin=3.0, emergency_margin=5.0):
        super().__init__()
        self.line_speed = line_speed
        self.warning_margin = warning_margin
        self.service_margin = service_margin
        self.emergency_margin = emergency_margin
        self.adhesion = AdhesionEstimator()

    def forward(self, restrictions, state):
        # restrictions: (N, 2) [distance ahead m, target speed m/s]; state: (3,) [speed m/s, gradient permille, rail condition]
        decel = self.adhesion(state)
        # a downhill gradient (negative permille) reduces the available deceleration
        decel = (decel + 9.81 * state[1:2] / 1000.0).clamp(min=0.2)
        candidates = [torch.full((1,), self.line_speed)]
        for i in range(restrictions.shape[0]):
            distance, target = restrictions[i, 0], restrictions[i, 1]
            if distance < 0:
                continue  # restriction already behind the train front
            candidates.append(torch.sqrt(target ** 2 + 2.0 * decel * distance))
        permitted = torch.cat(candidates).min()

        speed = state[0]
        if speed > permitted + self.emergency_margin:
            command = EMERGENCY_BRAKE
        elif speed > permitted + self.service_margin:
            command = SERVICE_BRAKE
        elif speed > permitted + self.warning_margin:
            command = WARNING
        else:
            command = NONE
        return torch.tensor([command]), permitted.reshape(1), decel


def model():
    torch.manual_seed(3408)
    return BrakingSupervisor().eval()


def example_inputs():
    restrictions = torch.tensor([[-120.0, 10.0], [1500.0, 22.0], [4000.0, 0.0], [500.0, 33.0]])
    return (restrictions, torch.tensor([30.0, 0.0, 0.9]))


def dynamic_shapes():
    N = torch.export.Dim("restrictions", min=2, max=32)
    return ({0: N}, None)


def verify_inputs():
    far = torch.tensor([[6000.0, 20.0], [9000.0, 0.0]])
    return [
        # one restriction behind (continue), the 33 m/s limit governs, below it -> NONE
        example_inputs(),
        # 30 m/s approaching a 10 m/s limit 300 m ahead on wet rail -> EMERGENCY_BRAKE
        (torch.tensor([[300.0, 10.0], [2000.0, 25.0]]), torch.tensor([30.0, -5.0, 0.3])),
        # limits far away, line speed governs, 43 m/s + 3.5 over line speed -> SERVICE_BRAKE
        (far, torch.tensor([47.5, 0.0, 0.8])),
        # slightly over line speed -> WARNING
        (far, torch.tensor([46.0, 10.0, 1.0])),
        # every restriction already passed -> only the line speed candidate
        (torch.tensor([[-50.0, 5.0], [-10.0, 8.0], [-400.0, 0.0]]), torch.tensor([20.0, 2.0, 0.5])),
    ]
