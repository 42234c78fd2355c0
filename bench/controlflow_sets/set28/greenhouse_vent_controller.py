"""Greenhouse climate controller: vents, heater and CO2 injection from a window of sensor readings."""
import torch
import torch.nn as nn


def comfort_error(reading, low, high):
    # signed distance outside the comfort band, zero inside it
    if reading > high:
        return reading - high
    elif reading < low:
        return reading - low
    return torch.zeros_like(reading)


class VentController(nn.Module):
    def __init__(self):
        super().__init__()
        self.refine = nn.Sequential(nn.Linear(8, 16), nn.Tanh(), nn.Linear(16, 4))
        self.window = 4

    def forward(self, readings, setpoints):
        # readings [T, 4]: temperature C, relative humidity %, CO2 ppm, light (0..1); setpoints [4]
        recent = readings[-self.window:].mean(0)
        temp, hum, co2, light = recent[0], recent[1], recent[2], recent[3]
        t_err = comfort_error(temp, setpoints[0] - 2.0, setpoints[0] + 2.0)
        h_err = comfort_error(hum, setpoints[1] - 10.0, setpoints[1] + 10.0)
        vent = torch.zeros(())
        heater = torch.zeros(())
        if t_err > 0 or h_err > 0:
            vent = torch.clamp(0.2 * t_err + 0.05 * h_err, 0.1, 1.0)
        elif t_err < 0 and not light > 0.5:
            heater = torch.clamp(-0.3 * t_err, 0.0, 1.0)
        co2_valve = torch.zeros(())
        if co2 < setpoints[2] and light > 0.6 and vent < 0.5:
            co2_valve = (setpoints[2] - co2) / setpoints[2]
        base = torch.stack([vent, heater, co2_valve, light])
        feats = torch.cat([base, (recent - setpoints) / (setpoints.abs() + 1.0)])
        return torch.clamp(base + 0.05 * torch.tanh(self.refine(feats)), 0.0, 1.0)


def model():
    torch.manual_seed(0)
    return VentController().eval()


def _case(seed, t, temp, hum, co2, light):
    g = torch.Generator().manual_seed(seed)
    base = torch.tensor([temp, hum, co2, light])
    noise = torch.randn(t, 4, generator=g) * torch.tensor([0.1, 0.5, 5.0, 0.01])
    return base + noise, torch.tensor([22.0, 65.0, 800.0, 0.5])


def example_inputs():
    return _case(0, 10, 23.0, 60.0, 700.0, 0.7)


def dynamic_shapes():
    t = torch.export.Dim("readings", min=4, max=256)
    return ({0: t}, None)


def verify_inputs():
    return [
        _case(1, 8, 27.0, 60.0, 900.0, 0.8),     # too hot -> vent
        _case(2, 12, 22.0, 90.0, 600.0, 0.9),    # too humid -> vent (or); wide-open vent blocks CO2
        _case(3, 6, 17.0, 60.0, 600.0, 0.2),     # cold and dark -> heater
        _case(4, 20, 17.0, 60.0, 600.0, 0.8),    # cold but sunny -> hold
        _case(5, 9, 22.5, 66.0, 500.0, 0.7),     # comfortable, CO2 enrichment
        _case(6, 7, 22.0, 70.0, 900.0, 0.3),     # comfortable, no enrichment
    ]
