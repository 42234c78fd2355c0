"""Collision detection and reflex for a 6-axis collaborative robot arm.

A generalized-momentum style observer filters the difference between measured joint torques and
the torques predicted by the dynamic model.  If the residual crosses the soft threshold the arm
slows down; if it crosses the hard threshold (or the summed residual is too large) the arm stops
(the monitoring loop breaks).  A small classifier then labels the contact from the residual
history (clamp / bump / none).
"""
import torch
import torch.nn as nn
from torch.export import Dim

N_JOINTS = 6


class ContactClassifier(nn.Module):
    def __init__(self, n_joints=N_JOINTS, n_classes=3):
        super().__init__()
        self.head = nn.Sequential(nn.Linear(2 * n_joints, 16), nn.ReLU(), nn.Linear(16, n_classes))
        self.slow_bias = nn.Parameter(torch.tensor([0.5, 0.0, -0.5]))

    def forward(self, hist, speed):
        feat = torch.cat([hist.abs().mean(0), hist.abs().amax(0)])
        logits = self.head(feat)
        if speed < 1.0:
            # the arm was already in reduced-speed mode: contact more likely a clamp
            logits = logits + self.slow_bias
        return logits.softmax(-1)


class CollisionReflexMonitor(nn.Module):
    def __init__(self):
        super().__init__()
        self.observer_gain = 0.35
        self.register_buffer("thresholds", torch.tensor([8.0, 8.0, 6.0, 3.0, 2.0, 1.5]))
        self.total_limit = 14.0
        self.classifier = ContactClassifier()

    def forward(self, tau_meas, tau_model):
        r = torch.zeros(N_JOINTS)
        speed = torch.ones(())
        residuals = []
        for t in range(tau_meas.shape[0]):
            r = r + self.observer_gain * (tau_meas[t] - tau_model[t] - r)
            residuals.append(r)
            level = (r.abs() / self.thresholds).max()
            if level > 1.0 or r.abs().sum() > self.total_limit:
                break  # hard stop: reflex
            elif level > 0.5:
                speed = torch.clamp(speed * 0.8, min=0.2)
        hist = torch.stack(residuals)
        contact = self.classifier(hist, speed)
        return hist, speed, contact


def model():
    torch.manual_seed(652)
    return CollisionReflexMonitor().eval()


def _trace(T, bumps, seed):
    """bumps: list of (start, length, joint-torque vector)."""
    g = torch.Generator().manual_seed(seed)
    tau_model = torch.sin(torch.arange(T).float()[:, None] * 0.1 + torch.arange(N_JOINTS).float()) * 5.0
    tau_meas = tau_model + 0.05 * torch.randn(T, N_JOINTS, generator=g)
    for start, length, vec in bumps:
        tau_meas[start:start + length] += torch.tensor(vec)
    return tau_meas, tau_model


def example_inputs():
    # soft contact on joint 3 from step 10 to 20 -> slows down, no stop
    return _trace(30, [(10, 10, [0.0, 0.0, 0.0, 2.0, 0.0, 0.0])], 0)


def dynamic_shapes():
    steps = Dim("steps", min=2, max=256)
    return ({0: steps}, {0: steps})


def verify_inputs():
    return [
        example_inputs(),                                                       # soft contact: speed reduced, loop runs to end
        _trace(40, [], 1),                                                      # free motion: no branch taken, full speed
        _trace(50, [(12, 30, [0.0, 0.0, 0.0, 0.0, 6.0, 0.0])], 2),              # hard contact on wrist: level > 1 -> break
        _trace(25, [(5, 20, [5.0, 5.0, 4.0, 1.0, 0.5, 0.5])], 3),               # many joints moderately: sum > limit -> break (or-branch)
        _trace(2, [], 4),                                                       # minimal length trace
    ]
