"""Motorsport race-engineer tool: when should the car pit for tyres?

Inputs per completed lap: lap time (s), cumulative tyre wear (0..1 from the
tyre model), and a safety-car flag. Green-flag laps before the wear cliff
give the clean race pace; if the cliff has not been reached yet the wear is
projected forward lap by lap to find the lap on which it will be.
"""
import torch
import torch.nn as nn


class PitStopStrategist(nn.Module):
    def __init__(self, cliff=0.72, max_stint_ahead=60):
        super().__init__()
        self.cliff = cliff
        self.max_stint_ahead = max_stint_ahead
        # learned lap-time loss (s) per unit of wear for this car/track
        self.deg_model = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1), nn.Softplus())

    def forward(self, lap_times, wear, safety_car):
        n_laps = lap_times.shape[0]
        clean = []
        cliff_lap = None
        for lap in range(n_laps):
            if safety_car[lap] > 0.5:
                continue  # neutralised lap, says nothing about pace
            if wear[lap] > self.cliff:
                cliff_lap = lap
                break
            clean.append(lap_times[lap])
        pace = torch.stack(clean).mean() if clean else lap_times.min()

        if cliff_lap is not None:
            # already over the cliff: box this lap
            pit_lap = torch.tensor(float(cliff_lap))
            laps_ahead = 0
        else:
            rate = ((wear[-1] - wear[0]) / max(n_laps - 1, 1)).clamp(min=0.004)
            w = wear[-1]
            laps_ahead = 0
            while w < self.cliff and laps_ahead < self.max_stint_ahead:
                w = w + rate
                laps_ahead += 1
            pit_lap = torch.tensor(float(n_laps + laps_ahead))

        deg = self.deg_model(torch.stack([wear[-1], pace / 100.0])).squeeze(0)
        time_lost = deg * laps_ahead
        return pit_lap, pace, time_lost


def model():
    torch.manual_seed(5507)
    return PitStopStrategist().eval()


def _stint(laps, wear_rate, sc_laps, seed, start_wear=0.0):
    g = torch.Generator().manual_seed(seed)
    wear = start_wear + wear_rate * torch.arange(1, laps + 1, dtype=torch.float32)
    times = 91.0 + 4.0 * wear + 0.2 * torch.rand(laps, generator=g)
    sc = torch.zeros(laps)
    for lap in sc_laps:
        sc[lap] = 1.0
        times[lap] += 25.0
    return times, wear, sc


def example_inputs():
    return _stint(20, 0.02, [5, 6], 1)


def dynamic_shapes():
    laps = torch.export.Dim("laps", min=2, max=80)
    return ({0: laps}, {0: laps}, {0: laps})


def verify_inputs():
    return [
        example_inputs(),                          # safety car skipped (continue), no cliff -> while projects ahead
        _stint(2, 0.01, [], 2),                    # laps=min, fresh tyres: long projection
        _stint(80, 0.015, [10, 11, 40], 3),        # laps=max, cliff reached mid-stint -> break, pit now
        _stint(4, 0.40, [0], 4),                   # lap 0 under SC, lap 1 already over cliff: no clean laps -> min lap
        _stint(6, 0.0005, [], 5, start_wear=0.1),  # almost no wear: projection capped at max_stint_ahead
    ]
