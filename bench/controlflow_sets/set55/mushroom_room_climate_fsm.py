"""Mushroom grow-room climate controller (oyster mushrooms, fruiting phase).

Sensors report CO2 (ppm), relative humidity (%) and air temperature (degC)
every 5 minutes. A state machine drives the fresh-air fans, the misting
nozzles and the heater: IDLE, FLUSH (fresh air until CO2 is down, minimum run
time), MIST (until RH recovers) and HEAT (until the setpoint is back). A
reading of 0 ppm CO2 is a sensor dropout and holds the previous action. A
learned head turns the duty cycles into an expected flush-quality score.
"""
import torch
import torch.nn as nn

IDLE, FLUSH, MIST, HEAT = 0, 1, 2, 3

SETPOINTS = {
    "pinning": dict(co2_high=1200.0, co2_target=700.0, rh_low=88.0, rh_high=94.0, temp_low=14.0, temp_target=16.0),
    "fruiting": dict(co2_high=900.0, co2_target=600.0, rh_low=85.0, rh_high=92.0, temp_low=15.0, temp_target=17.0),
}


class GrowRoomController(nn.Module):
    def __init__(self, phase="fruiting", min_flush_steps=3):
        super().__init__()
        self.sp = SETPOINTS[phase]
        self.min_flush_steps = min_flush_steps
        # rows: fan, mister, heater duty for each state
        self.register_buffer("action_table", torch.tensor([[0.1, 0.0, 0.0],
                                                           [1.0, 0.0, 0.0],
                                                           [0.2, 1.0, 0.0],
                                                           [0.0, 0.0, 1.0]]))
        self.quality = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))

    def forward(self, sensors):
        sp = self.sp
        state = IDLE
        timer = 0
        states = []
        actions = []
        for t in range(sensors.shape[0]):
            co2, rh, temp = sensors[t, 0], sensors[t, 1], sensors[t, 2]
            if co2 <= 0:
                # sensor dropout: hold whatever we were doing
                states.append(state)
                actions.append(self.action_table[state])
                continue
            if state == IDLE:
                if co2 > sp["co2_high"]:
                    state, timer = FLUSH, 0
                elif rh < sp["rh_low"] and not temp < sp["temp_low"]:
                    state = MIST
                elif temp < sp["temp_low"]:
                    state = HEAT
            elif state == FLUSH:
                timer += 1
                if co2 < sp["co2_target"] and timer >= self.min_flush_steps:
                    state = IDLE
                elif rh < sp["rh_low"] - 8.0:
                    state = MIST   # fresh air dried the room out badly
            elif state == MIST:
                if rh > sp["rh_high"] or co2 > sp["co2_high"] + 300.0:
                    state = IDLE
            else:
                if temp > sp["temp_target"]:
                    state = IDLE
            states.append(state)
            actions.append(self.action_table[state])

        states = torch.tensor(states)
        occupancy = torch.stack([(states == s).float().mean() for s in (IDLE, FLUSH, MIST, HEAT)])
        score = torch.sigmoid(self.quality(occupancy)).squeeze(0)
        return torch.stack(actions), states, score


def model():
    torch.manual_seed(5518)
    return GrowRoomController().eval()


def _room(segments, seed):
    """segments: list of (steps, co2, rh, temp) plateaus with a little noise."""
    g = torch.Generator().manual_seed(seed)
    rows = []
    for steps, co2, rh, temp in segments:
        base = torch.tensor([co2, rh, temp]).expand(steps, 3)
        noise = torch.randn(steps, 3, generator=g) * torch.tensor([10.0, 0.3, 0.05])
        rows.append(base + noise)
    return (torch.cat(rows),)


def example_inputs():
    return _room([(4, 700.0, 88.0, 16.0), (6, 1100.0, 87.0, 16.0), (6, 500.0, 86.0, 16.0),
                  (5, 650.0, 80.0, 16.0), (4, 650.0, 94.0, 16.0)], 1)


def dynamic_shapes():
    steps = torch.export.Dim("steps", min=4, max=288)
    return ({0: steps},)


def _dropout_day():
    sensors = _room([(60, 650.0, 88.0, 16.0), (12, 1000.0, 88.0, 16.0), (40, 550.0, 88.0, 16.0),
                     (30, 600.0, 88.0, 14.0), (30, 600.0, 88.0, 17.5), (50, 1000.0, 75.0, 16.0),
                     (36, 1000.0, 75.0, 16.0), (30, 700.0, 93.0, 16.0)], 6)[0]
    sensors[100:104, 0] = 0.0
    return (sensors,)


def verify_inputs():
    return [
        example_inputs(),                                        # IDLE -> FLUSH (hold min time) -> IDLE -> MIST -> IDLE
        _room([(4, 650.0, 89.0, 14.2)], 2),                      # steps=min: cold room -> HEAT, stays heating
        _dropout_day(),                                          # steps=max: dropouts, heat cycle, flush drying the room -> MIST
        _room([(5, 650.0, 80.0, 16.0), (5, 1300.0, 80.0, 16.0), (5, 650.0, 93.0, 16.0)], 3),  # MIST ended by CO2 spike
    ]
