"""Engine idle stop-start decision for a passenger car.

At a standstill the ECU may switch the engine off, but only if the brake is
firmly pressed, the engine is warm, the battery can take a restart (with some
margin when the climate control is working hard) and the wheels are not
turned (driver about to manoeuvre).  A GRU over the recent CAN signals
predicts how long the stop will last; short stops are not worth it.

KIND T.  Constructs: 1 (if on tensor comparisons), 2 (early return),
3 (and/not over several tensor predicates), 7 (helper method with its own
predicate), 9 (eco-climate config flag, static sample window).
"""
import torch
import torch.nn as nn
from torch.export import Dim

KIND = "T"
CONSTRUCTS = (1, 2, 3, 7, 9)

# speed km/h, brake bar, SOC, coolant C, cabin temp error C, steering deg
SIGNAL_SCALE = [50.0, 20.0, 1.0, 100.0, 10.0, 180.0]


class IdleStopStartInhibitor(nn.Module):
    def __init__(self, eco_climate=False, still_samples=4, min_stop_s=3.0):
        super().__init__()
        self.eco_climate = eco_climate
        self.still_samples = still_samples
        self.min_stop_s = min_stop_s
        self.register_buffer("scale", torch.tensor(SIGNAL_SCALE))
        self.gru = nn.GRU(6, 16, batch_first=True)
        self.duration_head = nn.Linear(16, 1)

    def _hvac_demand(self, cabin_err):
        limit = 8.0 if self.eco_climate else 4.0
        return cabin_err.abs() > limit

    def predict_stop_seconds(self, signals):
        _, h = self.gru((signals / self.scale).unsqueeze(0))
        return 20.0 * torch.sigmoid(self.duration_head(h[-1])).view(())

    def forward(self, signals):
        # signals: (T, 6) CAN samples at 10 Hz, newest last
        speed, brake, soc, coolant, cabin_err, steer = signals[-1].unbind()
        standstill = (signals[-self.still_samples:, 0] < 0.5).all()
        if not standstill:
            return torch.tensor(False), torch.zeros(())

        stop_s = self.predict_stop_seconds(signals)
        engine_warm = coolant > 70.0
        battery_ok = soc > 0.65 and not (soc < 0.75 and self._hvac_demand(cabin_err))
        if brake > 5.0 and engine_warm and battery_ok and steer.abs() < 30.0:
            allow = stop_s > self.min_stop_s
        else:
            allow = torch.tensor(False)
        return allow, stop_s


def model():
    torch.manual_seed(61006)
    return IdleStopStartInhibitor().eval()


def make_can(n, brake=12.0, soc=0.82, coolant=88.0, cabin_err=1.0, steer=3.0,
             moving_until=None, seed=0):
    g = torch.Generator().manual_seed(seed)
    speed = torch.linspace(30.0, 0.0, n)
    if moving_until is not None:
        speed = torch.full((n,), 12.0)
    else:
        speed[-max(4, n // 3):] = 0.0
    sig = torch.stack([
        speed,
        torch.full((n,), brake),
        torch.full((n,), soc),
        torch.full((n,), coolant),
        torch.full((n,), cabin_err),
        torch.full((n,), steer),
    ], dim=1)
    return sig + 0.01 * torch.randn(n, 6, generator=g) * torch.tensor([0.0, 1, 0.1, 1, 1, 1])


def example_inputs():
    # stopped at a light, everything fine: engine may stop
    return (make_can(20, seed=1),)


def dynamic_shapes():
    return ({0: Dim("samples", min=4, max=600)},)


def verify_inputs():
    return [
        # all conditions met -> allow depends on predicted duration
        example_inputs(),
        # still rolling: early return
        (make_can(12, moving_until=12, seed=2),),
        # standstill but foot barely on the brake (2 bar): first and-term false
        (make_can(8, brake=2.0, seed=3),),
        # cold engine (coolant 45 C)
        (make_can(30, coolant=45.0, seed=4),),
        # battery low (SOC 0.55): battery_ok false at its first term
        (make_can(16, soc=0.55, seed=5),),
        # SOC 0.70 with cabin 6 C off target (hvac demand): battery_ok false via not(...)
        (make_can(16, soc=0.70, cabin_err=6.0, seed=6),),
        # SOC 0.70, cabin near target: battery ok; wheels turned 45 deg -> steer test false
        (make_can(9, soc=0.70, steer=45.0, seed=7),),
        # SOC 0.70, cabin near target, straight wheels, soc < 0.75 true but no demand: allowed
        (make_can(25, soc=0.70, seed=8),),
    ]
