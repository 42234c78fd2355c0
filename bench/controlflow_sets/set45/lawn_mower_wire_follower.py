"""Robotic lawn mower boundary-wire logic: two pickup coils (signed: inside
the perimeter positive, outside negative), smoothed, decide between reversing
back inside, turning away from the wire, or a learned cruise policy.

Kind T. Constructs: 1, 2, 3, 4, 9.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


class WireFollower(nn.Module):
    def __init__(self, smooth=3, max_reverse_steps=20, recover_rate=0.08):
        super().__init__()
        self.smooth = smooth
        self.max_reverse_steps = max_reverse_steps
        self.recover_rate = recover_rate
        self.policy = nn.ModuleList([nn.Linear(4, 16), nn.Linear(16, 16), nn.Linear(16, 2)])

    def cruise(self, feats):
        h = feats
        for i, layer in enumerate(self.policy):
            h = layer(h)
            if i < len(self.policy) - 1:
                h = torch.tanh(h)
        return 0.2 + 0.3 * torch.sigmoid(h)  # wheel speeds in [0.2, 0.5] m/s

    def forward(self, coils):
        # coils: [T, 2] recent left/right coil readings, newest last
        x = coils.t().unsqueeze(0)
        sig = F.avg_pool1d(F.pad(x, (self.smooth - 1, 0), mode="replicate"), self.smooth, stride=1)
        sig = sig[0].t()
        left, right = sig[-1, 0], sig[-1, 1]

        reverse_steps = torch.zeros(())
        if left < 0 and right < 0:
            # fully outside: back up until the predicted signal is positive again
            s = sig[-1].mean()
            while s < 0 and reverse_steps < self.max_reverse_steps:
                s = s + self.recover_rate * (1.0 + 0.1 * reverse_steps)
                reverse_steps = reverse_steps + 1
            wheels = torch.tensor([-0.3, -0.3])
        elif left < 0 or right < 0:
            # one coil over the wire: spin away from it
            turn = torch.where(left < 0, torch.tensor([0.3, -0.3]), torch.tensor([-0.3, 0.3]))
            wheels = turn * (1.0 + (left - right).abs().clamp(max=1.0))
        else:
            feats = torch.stack([left, right, sig[:, 0].mean(), sig[:, 1].mean()])
            wheels = self.cruise(feats)
        return wheels, reverse_steps


def model():
    torch.manual_seed(6)
    return WireFollower().eval()


def _trace(t, end_left, end_right, seed):
    g = torch.Generator().manual_seed(seed)
    ramp = torch.linspace(0, 1, t).unsqueeze(1)
    start = torch.tensor([[0.8, 0.8]])
    end = torch.tensor([[end_left, end_right]])
    return start + (end - start) * ramp + 0.002 * torch.randn(t, 2, generator=g)


def example_inputs():
    return (_trace(16, 0.6, 0.5, 0),)


def dynamic_shapes():
    return ({0: Dim("ticks", min=4, max=512)},)


def verify_inputs():
    return [
        example_inputs(),  # both coils inside -> learned cruise (ModuleList loop)
        (_trace(32, -0.05, -0.04, 1),),  # just outside: while runs exactly once
        (_trace(64, -0.6, -0.5, 2),),  # well outside: while runs several times
        (_trace(512, -5.0, -5.0, 3),),  # far outside: while stops at the 20-step cap
        (_trace(8, -0.3, 0.4, 4),),  # left coil over the wire -> turn (`or`, first operand)
        (_trace(4, 0.4, -0.9, 5),),  # right coil over the wire -> turn (`or`, second operand); min length
        (_trace(20, -0.4, 0.5, 6),),  # left<0 but right>0: `and` fails -> turn branch
    ]
