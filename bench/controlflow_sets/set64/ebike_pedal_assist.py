"""E-bike mid-drive motor controller: torque-sensing pedal assist.

Every control tick the controller reads crank torque, cadence, road speed and
the brake lever switches.  The motor is cut while braking or when the rider
is not pedalling, and (by law) above 25 km/h; otherwise it adds assist torque
proportional to rider torque for the selected level, tapered near the speed
limit and boosted for hill starts.  Motor torque may rise only at a limited
slew rate (drivetrain protection) but is cut instantly.
"""
import torch
import torch.nn as nn

ASSIST_RATIO = {"eco": 0.5, "tour": 1.2, "turbo": 2.5}


class PedalAssist(nn.Module):
    def __init__(self, level="tour", cutoff_kmh=25.0, taper_from_kmh=22.0, min_cadence=20.0,
                 hill_torque=55.0, max_motor_nm=85.0, slew_nm=8.0):
        super().__init__()
        self.ratio = ASSIST_RATIO[level]
        self.cutoff = cutoff_kmh
        self.taper_from = taper_from_kmh
        self.min_cadence = min_cadence
        self.hill_torque = hill_torque
        self.max_motor = max_motor_nm
        self.slew = slew_nm

    def _assist(self, torque, speed):
        motor = self.ratio * torque
        if torque > self.hill_torque and speed < 10.0:
            motor = motor * 1.25
        elif speed > self.taper_from:
            motor = motor * (self.cutoff - speed) / (self.cutoff - self.taper_from)
        return motor.clamp(max=self.max_motor)

    def forward(self, torque, cadence, speed, brake):
        current = torch.zeros(())
        out = []
        for t in range(torque.shape[0]):
            if brake[t] or cadence[t] < self.min_cadence:
                target = torch.zeros(())
            elif speed[t] >= self.cutoff:
                target = torch.zeros(())
            else:
                target = self._assist(torque[t], speed[t])

            if target > current + self.slew:
                current = current + self.slew     # slew-limited rise
            else:
                current = target                  # target reached, or an instant cut
            out.append(current)
        return torch.stack(out)


def model():
    torch.manual_seed(64)
    return PedalAssist().eval()


def _ride(segments):
    """segments: list of (ticks, rider_torque_nm, cadence_rpm, speed_kmh, braking)."""
    tq, cad, spd, brk = [], [], [], []
    for n, q, c, s, b in segments:
        tq.append(torch.full((n,), q))
        cad.append(torch.full((n,), c))
        spd.append(torch.linspace(s[0], s[1], n) if isinstance(s, tuple) else torch.full((n,), s))
        brk.append(torch.full((n,), b, dtype=torch.bool))
    return torch.cat(tq), torch.cat(cad), torch.cat(spd), torch.cat(brk)


def example_inputs():
    # hill start, cruising (slew-limited ramp), brake, coast without pedalling, pedal again
    return _ride([(4, 70.0, 40.0, 6.0, False), (6, 30.0, 70.0, 18.0, False), (2, 30.0, 70.0, 17.0, True),
                  (3, 0.0, 0.0, 15.0, False), (3, 25.0, 75.0, 16.0, False)])


def dynamic_shapes():
    t = torch.export.Dim("ticks", min=2, max=1000)
    return ({0: t}, {0: t}, {0: t}, {0: t})


def verify_inputs():
    return [
        example_inputs(),   # hill boost, plain assist ramping up (slew), brake cut, no-pedalling cut, re-ramp
        _ride([(6, 35.0, 80.0, (20.0, 24.5), False), (3, 35.0, 85.0, 26.5, False)]),  # taper above 22 km/h, cut above 25 km/h
        _ride([(2, 65.0, 30.0, 14.0, False)]),    # strong torque but above hill-start speed: no boost, no taper
        _ride([(3, 20.0, 10.0, 8.0, False), (2, 20.0, 60.0, 8.0, True)]),  # slow cadence cut; brake while pedalling
    ]
