"""Tunnel boring machine: recommend the total thrust for each ring from the
logged face conditions, with a separate learned head per ground class and a
back-off rule when the cutterhead is overloaded or stalls.

Kind T; constructs 1, 2, 3, 5, 7, 9."""
import torch
import torch.nn as nn
from torch.export import Dim


def ground_class(ucs, rqd):
    """Face ground class from rock strength (UCS, MPa) and rock quality (RQD, %)."""
    if ucs < 5.0:
        return "soft"
    if ucs > 60.0 and rqd > 50.0:
        return "rock"
    return "mixed"


class ThrustHead(nn.Module):
    def __init__(self, base_kn):
        super().__init__()
        self.base = base_kn
        self.mlp = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, x):
        return self.base * (1.0 + 0.2 * torch.tanh(self.mlp(x)))


class TBMThrustAdvisor(nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(403)
        self.heads = nn.ModuleDict({
            "soft": ThrustHead(8000.0),
            "mixed": ThrustHead(14000.0),
            "rock": ThrustHead(20000.0),
        })
        # log normalisation: torque MNm, penetration mm/rev, face pressure bar, UCS MPa, RQD %, cutter wear
        self.register_buffer("mean", torch.tensor([3.0, 8.0, 2.0, 40.0, 50.0, 0.3]))
        self.register_buffer("std", torch.tensor([1.5, 4.0, 1.0, 40.0, 30.0, 0.2]))
        self.max_torque = 4.5
        self.min_penetration = 4.0
        self.max_step = 1500.0      # kN change allowed between consecutive rings
        self.rate_limit = True

    def forward(self, logs):
        # logs: [R, 6] one row per ring
        x = (logs - self.mean) / self.std
        prev = logs.new_tensor([12000.0])
        thrusts = []
        for i in range(logs.shape[0]):
            ring = logs[i]
            thrust = self.heads[ground_class(ring[3], ring[4])](x[i])
            if ring[0] > self.max_torque or ring[1] < self.min_penetration:
                # cutterhead overloaded or stalled: back off
                thrust = thrust * 0.85
            if self.rate_limit:  # pragma: no branch
                thrust = torch.clamp(thrust, prev - self.max_step, prev + self.max_step)
            thrusts.append(thrust)
            prev = thrust
        return torch.cat(thrusts)


def model():
    return TBMThrustAdvisor().eval()


def _rings(rows):
    return torch.tensor(rows, dtype=torch.float32)


def _drive(R, seed):
    """A drive through changing geology: soft clay, mixed face, then hard rock."""
    g = torch.Generator().manual_seed(seed)
    ucs = torch.tensor([2.0, 30.0, 90.0]).repeat_interleave((R + 2) // 3)[:R]
    rqd = torch.tensor([20.0, 40.0, 75.0]).repeat_interleave((R + 2) // 3)[:R]
    torque = 2.5 + 1.5 * torch.rand(R, generator=g)
    pen = 6.0 + 6.0 * torch.rand(R, generator=g)
    pressure = 1.5 + torch.rand(R, generator=g)
    wear = 0.1 + 0.5 * torch.rand(R, generator=g)
    return torch.stack([torque, pen, pressure, ucs, rqd, wear], dim=1)


def example_inputs():
    return (_drive(12, 1),)


def dynamic_shapes():
    return ({0: Dim("rings", min=2, max=64)},)


def verify_inputs():
    return [
        example_inputs(),                                     # soft -> mixed -> rock, no overload
        (_rings([[5.2, 7.0, 2.0, 3.0, 10.0, 0.2],             # soft, torque over limit -> back off
                 [3.0, 2.5, 2.0, 80.0, 30.0, 0.6]]),),        # strong but fractured (RQD low) -> mixed; stalled -> back off
        (_rings([[3.0, 9.0, 2.0, 120.0, 90.0, 0.1],           # rock, big jump from 12000 kN -> rate limit clamps
                 [4.8, 9.0, 2.0, 120.0, 90.0, 0.1],           # rock, torque over limit
                 [3.0, 9.0, 2.0, 1.0, 0.0, 0.1]]),),          # sudden soft face
        (_drive(64, 2),),                                     # max length
    ]
