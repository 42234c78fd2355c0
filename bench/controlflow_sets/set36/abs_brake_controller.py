"""Automotive: anti-lock braking state machine (apply / hold / release) per wheel over a logged stop.

Per-wheel states and pressures live in Python lists of tensors, updated inside a time loop with
nested tensor branches and `continue`s. Kind X. Constructs: 1, 2, 5, 6, 7, 9.
"""
import torch
import torch.nn as nn

APPLY, HOLD, RELEASE = 0, 1, 2


class AbsController(nn.Module):
    def __init__(self, n_wheels=4, cutout_speed=2.0, apply_rate=0.2, dump_rate=0.3):
        super().__init__()
        self.n_wheels = n_wheels
        self.cutout_speed = cutout_speed
        self.apply_rate = apply_rate
        self.dump_rate = dump_rate
        # road-friction estimator -> target slip (icy roads want less slip)
        self.mu_net = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))

    def _slip_limits(self, speed, pedal):
        mu = 0.2 + 0.8 * torch.sigmoid(self.mu_net(torch.stack([speed / 30.0, pedal]))).squeeze(-1)
        target = 0.08 + 0.1 * mu
        return 1.3 * target, 0.7 * target

    def _step_wheel(self, state, pressure, slip, hi, lo, demand):
        if state == APPLY:
            if slip > hi:
                return torch.full_like(state, RELEASE), pressure
            return state, torch.minimum(pressure + self.apply_rate, demand)
        if state == RELEASE:
            pressure = (pressure - self.dump_rate).clamp(min=0)
            if slip < lo:
                state = torch.full_like(state, HOLD)
            return state, pressure
        # HOLD
        if slip > hi:
            state = torch.full_like(state, RELEASE)
        elif slip < 0.5 * lo:
            state = torch.full_like(state, APPLY)
        return state, pressure

    def forward(self, wheel_speed, vehicle_speed, pedal):
        states = [torch.zeros((), dtype=torch.long) for _ in range(self.n_wheels)]
        pressure = [torch.zeros_like(pedal[0]) for _ in range(self.n_wheels)]
        commands = []
        for t in range(vehicle_speed.shape[0]):
            v = vehicle_speed[t]
            if pedal[t] < 0.05:
                # driver is off the brake: ABS idle
                states = [torch.zeros_like(s) for s in states]
                pressure = [torch.zeros_like(p) for p in pressure]
                commands.append(torch.stack(pressure))
                continue
            if v < self.cutout_speed:
                # below the cut-out speed the pedal pressure goes straight through
                pressure = [pedal[t].clone() for _ in range(self.n_wheels)]
                commands.append(torch.stack(pressure))
                continue
            hi, lo = self._slip_limits(v, pedal[t])
            for w in range(self.n_wheels):
                slip = (v - wheel_speed[t, w]).clamp(min=0) / v
                states[w], pressure[w] = self._step_wheel(states[w], pressure[w], slip, hi, lo, pedal[t])
            commands.append(torch.stack(pressure))
        return torch.stack(commands), torch.stack(states)


def model():
    torch.manual_seed(36014)
    return AbsController().eval()


LOW, MID, HIGH = 0.01, 0.062, 0.4
# per-step slip pattern driving apply->release->hold->release->hold->apply
PATTERN = [LOW, HIGH, HIGH, MID, MID, HIGH, MID, LOW, LOW]


def _stop(n, v0, v1, slips_per_wheel, pedal_level=0.8, pedal_off=(), seed=0):
    g = torch.Generator().manual_seed(seed)
    v = torch.linspace(v0, v1, n)
    slip = torch.stack([torch.tensor(s[:n]) for s in slips_per_wheel], dim=1)
    wheel = v[:, None] * (1 - slip) * (1 + 0.0005 * torch.randn(n, len(slips_per_wheel), generator=g))
    pedal = torch.full((n,), pedal_level)
    for i in pedal_off:
        pedal[i] = 0.0
    return wheel, v, pedal


def example_inputs():
    # 9 steps at 25 -> 15 m/s; wheels see the pattern shifted in time
    wheels = [PATTERN, PATTERN[1:] + [LOW], [LOW] + PATTERN[:-1], [LOW] * 9]
    return _stop(9, 25.0, 15.0, wheels, seed=1)


def dynamic_shapes():
    steps = torch.export.Dim("steps", min=2, max=1000)
    return ({0: steps}, {0: steps}, {0: steps})


def verify_inputs():
    wheels_b = [[LOW, HIGH, MID, LOW, HIGH, HIGH]] * 2 + [[LOW] * 6] * 2
    return [
        example_inputs(),                                                  # every state transition
        _stop(6, 6.0, 0.5, wheels_b, pedal_off=(3,), seed=2),              # pedal released mid-stop, then below cut-out speed
        _stop(2, 20.0, 19.0, [[LOW, LOW]] * 4, pedal_off=(0,), seed=3),    # brake pressed at the 2nd step only
    ]
