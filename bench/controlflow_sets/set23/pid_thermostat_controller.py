"""Smart-thermostat simulation: a learned set-point schedule (MLP on
time-of-day features), heating/cooling mode switching with hysteresis, a PID
controller with output saturation and conditional-integration anti-windup,
and a first-order room model stepped forward in time."""
import math

import torch
import torch.nn as nn


class SetpointSchedule(nn.Module):
    def __init__(self, hidden=8, base=21.0, swing=2.0):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(2, hidden), nn.Tanh(), nn.Linear(hidden, 1))
        self.base, self.swing = base, swing

    def forward(self, steps, period):
        phase = torch.arange(steps, dtype=torch.float32) * (2 * math.pi / period)
        feats = torch.stack([phase.sin(), phase.cos()], -1)
        return self.base + self.swing * torch.tanh(self.mlp(feats)).squeeze(-1)


class PIDThermostatController(nn.Module):
    def __init__(self, kp=0.8, ki=0.1, kd=0.2, u_max=3.0, hysteresis=0.5, dt=1.0,
                 leak=0.1, actuator_gain=0.5, period=24.0):
        super().__init__()
        self.schedule = SetpointSchedule()
        self.kp, self.ki, self.kd = kp, ki, kd
        self.u_max = u_max
        self.hysteresis = hysteresis
        self.dt = dt
        self.leak, self.actuator_gain = leak, actuator_gain
        self.period = period

    def forward(self, outdoor, init_temp):
        setpoints = self.schedule(outdoor.shape[0], self.period)
        temp = init_temp
        integral = torch.zeros(())
        prev_err = setpoints[0] - temp
        mode = torch.zeros((), dtype=torch.long)  # 0 = heating, 1 = cooling
        controls, temps = [], []
        for k in range(outdoor.shape[0]):
            err = setpoints[k] - temp
            if mode == 0 and err < -self.hysteresis:
                mode = torch.ones_like(mode)
            elif mode == 1 and err > self.hysteresis:
                mode = torch.zeros_like(mode)
            deriv = (err - prev_err) / self.dt
            u_raw = self.kp * err + self.ki * integral + self.kd * deriv
            saturated = u_raw.abs() > self.u_max
            if not saturated or u_raw * err < 0:
                integral = integral + err * self.dt
            u = u_raw.clamp(-self.u_max, self.u_max)
            u = u.clamp(min=0.0) if mode == 0 else u.clamp(max=0.0)
            temp = temp + self.dt * (self.leak * (outdoor[k] - temp) + self.actuator_gain * u)
            prev_err = err
            controls.append(u)
            temps.append(temp)
        return torch.stack(controls), torch.stack(temps), mode


def model():
    torch.manual_seed(0)
    return PIDThermostatController().eval()


def _weather(steps, mean, amp, seed):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(steps, dtype=torch.float32)
    return mean + amp * torch.sin(2 * math.pi * t / 24.0) + 0.3 * torch.randn(steps, generator=g)


def example_inputs():
    return _weather(12, 5.0, 4.0, 0), torch.tensor(17.0)


def dynamic_shapes():
    return ({0: torch.export.Dim("steps", min=2, max=512)}, None)


def verify_inputs():
    return [
        (_weather(20, 30.0, 3.0, 1), torch.tensor(26.0)),
        (_weather(6, 18.0, 2.0, 2), torch.tensor(21.3)),
        (_weather(30, 24.0, 8.0, 3), torch.tensor(23.0)),
    ]
