"""X: dishwasher controller state machine replayed over a sensor log.

sensors (T, 3) per 10 s tick: [water level 0..1, water temp C, turbidity 0..1].
Returns per-tick heater power (T,), final state one-hot (5,), and number of re-wash events (1,).
States: 0 FILL, 1 WASH, 2 RINSE, 3 DRAIN, 4 DONE.
Constructs: 1, 2, 3, 5, 6, 7
"""
import torch
import torch.nn as nn

FILL, WASH, RINSE, DRAIN, DONE = range(5)


class HeaterPID(nn.Module):
    def __init__(self, kp=0.08, ki=0.01):
        super().__init__()
        self.kp = kp
        self.ki = ki

    def forward(self, temp, setpoint, integ):
        err = setpoint - temp
        # no heating when already hot: also bleed off the integrator
        if err < 0:
            return torch.zeros(()), integ * 0.5
        integ = (integ + err).clamp(max=50.0)
        return (self.kp * err + self.ki * integ).clamp(0.0, 1.0), integ


class DishwasherFSM(nn.Module):
    def __init__(self, wash_temp=60.0, rinse_ticks=3):
        super().__init__()
        self.heater = HeaterPID()
        self.wash_temp = wash_temp
        self.rinse_ticks = rinse_ticks

    def forward(self, sensors):
        state = FILL
        integ = torch.zeros(())
        rinse_count = 0
        rewash = 0
        power = []
        for t in range(sensors.shape[0]):
            level, temp, turb = sensors[t, 0], sensors[t, 1], sensors[t, 2]
            if state == DONE:
                power.append(torch.zeros(()))
                continue
            p = torch.zeros(())
            if state == FILL:
                if level > 0.8:
                    state = WASH
            elif state == WASH:
                p, integ = self.heater(temp, torch.tensor(self.wash_temp), integ)
                if turb < 0.2 and temp > self.wash_temp - 5.0:
                    state = RINSE
                    rinse_count = 0
            elif state == RINSE:
                rinse_count += 1
                # dirty water came back: wash again
                if turb > 0.5:
                    state = WASH
                    rewash += 1
                elif rinse_count >= self.rinse_ticks:
                    state = DRAIN
            else:
                if level < 0.1:
                    state = DONE
            power.append(p)
        onehot = torch.zeros(5)
        onehot[state] = 1.0
        return torch.stack(power), onehot, torch.tensor([float(rewash)])


def _log(phases, seed):
    """phases: list of (ticks, level, temp_start, temp_end, turbidity)."""
    g = torch.Generator().manual_seed(seed)
    rows = []
    for n, level, t0, t1, turb in phases:
        temps = torch.linspace(t0, t1, n)
        for i in range(n):
            rows.append(torch.tensor([level, float(temps[i]), turb]))
    x = torch.stack(rows)
    x[:, 1] += 0.2 * torch.randn(x.shape[0], generator=g)
    return (x,)


_FULL = [(3, 0.3, 20, 20, 0.9), (6, 0.95, 25, 62, 0.7), (3, 0.95, 62, 62, 0.1), (4, 0.95, 60, 55, 0.1),
         (3, 0.05, 50, 45, 0.1), (3, 0.05, 45, 40, 0.1)]


def model():
    torch.manual_seed(4611)
    return DishwasherFSM().eval()


def example_inputs():
    return _log(_FULL, 1)


def dynamic_shapes():
    return ({0: torch.export.Dim("ticks", min=2, max=512)},)


def verify_inputs():
    return [
        example_inputs(),  # FILL->WASH (heater on, then off when >60C)->RINSE->DRAIN->DONE, ticks after DONE skipped
        _log([(2, 0.3, 20, 20, 0.9)], 2),  # T=min: stuck in FILL
        _log([(2, 0.9, 20, 20, 0.9), (4, 0.9, 40, 64, 0.1), (2, 0.9, 64, 64, 0.8), (3, 0.9, 66, 62, 0.1),
              (4, 0.9, 60, 60, 0.1), (2, 0.05, 50, 50, 0.1)], 3),  # clean-but-cold (and false), rinse -> re-wash
        _log(_FULL + [(480, 0.05, 30, 25, 0.1)], 4),  # T=max: long tail in DONE
    ]
