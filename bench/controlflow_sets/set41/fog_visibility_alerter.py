"""Radiation-fog visibility nowcaster for a road-weather station.

Hourly observations (air temperature, dew point, wind speed, relative
humidity) feed a small temporal conv net that estimates visibility in km.
Forecaster rules count how many of the latest hours had fog-favourable
conditions (small dew-point spread and light wind) and raise a fog warning
level; a dew point above air temperature means a faulty sensor.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


class FogNowcaster(nn.Module):
    def __init__(self, hidden=16, context_hours=12):
        super().__init__()
        self.context_hours = context_hours
        self.register_buffer("mean", torch.tensor([10.0, 7.0, 3.0, 80.0]))
        self.register_buffer("scale", torch.tensor([8.0, 8.0, 3.0, 15.0]))
        self.conv = nn.Conv1d(4, hidden, 3, padding=1)
        self.head = nn.Linear(hidden, 1)

    def forward(self, obs):
        temp, dew, wind, rh = obs.unbind(dim=1)
        spread = temp - dew
        if (spread < -0.5).any():
            # dew point above air temperature: hygrometer fault, no forecast
            return torch.full((), -1.0, dtype=obs.dtype), torch.tensor(-1), torch.tensor(0)

        x = ((obs - self.mean) / self.scale).t().unsqueeze(0)
        h = F.relu(self.conv(x))
        if obs.shape[0] >= self.context_hours:
            ctx = h[..., -self.context_hours:].mean(dim=-1)
        else:
            ctx = h.mean(dim=-1)
        vis = 10.0 * torch.sigmoid(self.head(ctx)).squeeze()

        persist = 0
        for t in range(obs.shape[0] - 1, -1, -1):
            if spread[t] > 2.0 or wind[t] > 5.0:
                break
            persist += 1

        if persist >= 3 and rh[-1] > 95.0:
            level = 2
            vis = torch.clamp(vis, max=0.2)
        elif persist >= 1 or spread[-1] < 3.0:
            level = 1
        else:
            level = 0
        return vis, torch.tensor(level), torch.tensor(persist)


def model():
    torch.manual_seed(31)
    return FogNowcaster().eval()


CLEAR = [14.0, 6.0, 3.0, 60.0]
FOGGY = [6.0, 5.5, 1.0, 98.0]
MISTY = [8.0, 6.5, 1.5, 90.0]   # foggy conditions but humidity not saturated
HAZY = [9.0, 6.5, 2.0, 88.0]    # spread 2.5: not fog-favourable, but close
WINDY = [7.0, 6.2, 7.0, 96.0]   # small spread but too windy


def _hours(*rows):
    return (torch.tensor([r for n, r in rows for _ in range(n)], dtype=torch.float32),)


def example_inputs():
    return _hours((4, CLEAR), (4, FOGGY))


def dynamic_shapes():
    return ({0: Dim("hours", min=3, max=96)},)


def verify_inputs():
    return [
        example_inputs(),                              # 4 foggy hours, saturated -> level 2 (loop breaks after 4)
        _hours((3, CLEAR), (1, [5.0, 7.0, 1.0, 100.0])),  # dew point above temperature -> early return
        _hours((6, CLEAR)),                            # clear: break at once, level 0
        _hours((5, CLEAR), (1, MISTY)),                # one misty hour -> level 1 via persist
        _hours((5, CLEAR), (2, HAZY)),                 # persist 0 but spread < 3 -> level 1 via spread
        _hours((14, FOGGY)),                           # long record, foggy all along: loop never breaks
        _hours((4, CLEAR), (3, MISTY)),                # persist 3 but rh < 95 -> and fails -> level 1
        _hours((3, FOGGY), (2, WINDY)),                # break on wind (second operand of or)
    ]
