"""Black-ice warning for a road-weather information station (RWIS).

The station has a roadbed sensor and a bridge-deck sensor.  From the recent
observations [air C, surface C, dew point C, rel. humidity %, precip mm/h]
and the hourly forecast [air C, precip probability] it issues a warning level
per surface (0 none, 1 watch, 2 advisory, 3 ice likely) plus a learned ice
probability.
"""
import torch
import torch.nn as nn


class SurfaceIceModel(nn.Module):
    def __init__(self, bridge_deck):
        super().__init__()
        self.bridge_deck = bridge_deck
        self.mlp = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1))

    def _frost_point(self, dew):
        if dew >= 0.0:
            return dew
        # over ice the saturation point sits slightly above the dew point
        return 0.9 * dew

    def forward(self, surface, air, dew, rh, precip, fc_min):
        if self.bridge_deck:
            # decks lose heat from below as well and run colder than the roadbed
            surface = surface - 1.5
        frost_point = self._frost_point(dew)
        feats = torch.stack([surface, air, dew, rh / 100.0, precip, fc_min]) / 10.0
        prob = torch.sigmoid(self.mlp(feats.unsqueeze(0))).squeeze()

        if surface < 0.0 and (precip > 0.1 or surface < frost_point):
            level = 3
        elif surface < 2.0 and fc_min < 0.0:
            level = 2
        elif surface < 4.0:
            level = 1
        else:
            level = 0
        return level, prob


class BlackIcePredictor(nn.Module):
    def __init__(self):
        super().__init__()
        self.surfaces = nn.ModuleList([SurfaceIceModel(bridge_deck=False),
                                       SurfaceIceModel(bridge_deck=True)])
        self.window = 12       # one hour of 5-minute observations
        self.horizon_h = 24

    def forward(self, obs, forecast):
        recent = obs[-self.window:] if obs.shape[0] > self.window else obs
        if forecast.shape[0] > self.horizon_h:
            forecast = forecast[: self.horizon_h]
        fc_min = forecast[:, 0].min()

        now = recent[-1]
        cooling_rate = recent[-1, 1] - recent[0, 1]
        precip = recent[:, 4].max()

        levels, probs = [], []
        for surf in self.surfaces:
            level, prob = surf(now[1], now[0], now[2], now[3], precip, fc_min)
            # rapid surface cooling: escalate one level ahead of the model
            if cooling_rate < -1.5 and level < 3:
                level = level + 1
            levels.append(level)
            probs.append(prob)
        return torch.tensor(levels, dtype=torch.long), torch.stack(probs)


def model():
    torch.manual_seed(5308)
    return BlackIcePredictor().eval()


def example_inputs():
    return verify_inputs()[0]


def dynamic_shapes():
    steps = torch.export.Dim("steps", min=2, max=288)
    hours = torch.export.Dim("hours", min=2, max=48)
    return ({0: steps}, {0: hours})


def verify_inputs():
    def station(t, h, surface, dew, precip, fc_min, drop, seed):
        g = torch.Generator().manual_seed(seed)
        # `drop` C of cooling during the last hour
        surf = surface + drop * torch.clamp(torch.arange(t - 1, -1, -1) / 11.0, max=1.0)
        air = surf + 1.0 + 0.1 * torch.randn(t, generator=g)
        obs = torch.stack([air, surf, torch.full((t,), dew), torch.full((t,), 85.0),
                           torch.full((t,), precip)], dim=1)
        fc_air = fc_min + 3.0 * torch.rand(h, generator=g)
        fc_air[h // 2] = fc_min
        fc = torch.stack([fc_air, torch.rand(h, generator=g)], dim=1)
        return obs, fc

    return [
        # example: 48 obs (> 12 window), 36 forecast hours (> 24, truncated);
        # roadbed +0.8 C and forecast frost -> advisory; deck -0.7 C, dry,
        # above frost point (or both false) -> advisory; fast cooling
        # escalates both to 3
        station(48, 36, surface=0.8, dew=-2.0, precip=0.0, fc_min=-3.0, drop=2.5, seed=1),
        # 2 obs / 2 forecast hours (min); freezing rain -> 3 via precip
        station(2, 2, surface=-1.0, dew=-3.0, precip=1.0, fc_min=-2.0, drop=0.0, seed=2),
        # 288 obs / 48 hours (max); mild +5 C, dew point above 0 -> roadbed
        # level 0 (else), deck 3.5 C -> watch
        station(288, 48, surface=5.0, dew=3.0, precip=0.0, fc_min=4.0, drop=0.0, seed=3),
        # 20 obs / 10 hours; -0.5 C below frost point, dry -> 3 via the
        # second or-operand; cooling but already 3 -> no escalation
        station(20, 10, surface=-0.5, dew=-0.2, precip=0.0, fc_min=-1.0, drop=2.5, seed=4),
        # 12 obs (== window) / 24 hours; +1 C but warm forecast -> roadbed
        # watch (second and-operand false); deck below 0 but dry -> watch
        station(12, 24, surface=1.0, dew=-5.0, precip=0.0, fc_min=2.0, drop=0.0, seed=5),
    ]
