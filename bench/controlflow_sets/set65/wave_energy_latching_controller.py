"""Latching control of a heaving point-absorber wave energy converter.

The buoy is simulated as a mass-spring-damper excited by the measured wave elevation.  Latching
control clamps the buoy when its velocity reverses and holds it for a number of steps predicted
by a small network from the recent wave record, then releases it so its motion is in phase with
the wave excitation.  While unlatched the power take-off (PTO) damper absorbs power.  In calm
sea (small significant height) the controller parks the buoy and reports zero power.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class LatchingController(nn.Module):
    def __init__(self, dt=0.1, stiffness=4.0, pto_damping=1.2, min_wave_height=0.3, max_hold=12):
        super().__init__()
        self.dt = dt
        self.stiffness = stiffness
        self.pto_damping = pto_damping
        self.min_wave_height = min_wave_height
        self.max_hold = max_hold
        self.hold_net = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))

    def _hold_steps(self, wave):
        feat = torch.stack([wave.std(), wave.abs().amax(), (wave[1:] * wave[:-1] < 0).float().mean()])
        return torch.sigmoid(self.hold_net(feat)).squeeze(0) * self.max_hold

    def _pto_force(self, vel, latched):
        if latched:
            return torch.zeros(())
        return -self.pto_damping * vel

    def forward(self, wave, state):
        height = wave.amax() - wave.amin()
        if height < self.min_wave_height:
            return torch.zeros(wave.shape[0]), torch.zeros(())

        hold = self._hold_steps(wave)
        pos, vel = state[0], state[1]
        latched = False
        held = 0
        energy = torch.zeros(())
        positions = []
        for t in range(wave.shape[0]):
            if latched:
                held += 1
                if held >= hold:
                    latched = False
            f_pto = self._pto_force(vel, latched)
            if not latched:
                acc = self.stiffness * (wave[t] - pos) + f_pto - 0.1 * vel
                new_vel = vel + self.dt * acc
                if new_vel * vel < 0:
                    latched = True
                    held = 0
                    new_vel = torch.zeros(())
                energy = energy + self.pto_damping * vel * vel * self.dt
                vel = new_vel
                pos = pos + self.dt * vel
            positions.append(pos)
        return torch.stack(positions), energy


def model():
    torch.manual_seed(654)
    return LatchingController().eval()


def _sea(n, amp, period, phase=0.3):
    t = torch.arange(n).float() * 0.1
    return amp * torch.sin(2 * torch.pi * t / period + phase) + 0.2 * amp * torch.sin(2 * torch.pi * t / (0.45 * period) + 1.1)


def example_inputs():
    return (_sea(80, 0.8, 6.0), torch.tensor([0.0, 0.25]))


def dynamic_shapes():
    return ({0: Dim("samples", min=8, max=1024)}, None)


def verify_inputs():
    return [
        example_inputs(),                                   # moderate sea: several latch / hold / release cycles
        (_sea(60, 0.05, 5.0), torch.tensor([0.0, 0.0])),   # calm sea: height < min -> early return, parked
        (_sea(150, 1.5, 9.0, 1.0), torch.tensor([0.1, -0.2])),  # long swell: long runs, latches and releases
        (_sea(12, 0.6, 4.0, 2.0), torch.tensor([0.0, 0.4])),   # short record
    ]
