"""District-heating plant dispatch over an hourly weather forecast: a learned demand model
predicts network heat demand, a piecewise heating curve sets the supply temperature
(cold / mild / summer regimes, wind-chill boost, night set-back), and a heat-storage tank
is charged or discharged hour by hour.

Kind T. Constructs: 1 (if/elif/else on tensor comparisons), 2 (variables assigned in one
branch with a value from before the if), 3 (and / or on tensor predicates), 5 (for over the
dynamic forecast horizon, append + stack), 9 (config: night set-back flag, start hour,
static hour-of-day arithmetic, tank limits).
"""
import torch
import torch.nn as nn


class HeatingDispatch(nn.Module):
    def __init__(self, start_hour=0, night_setback=True, tank_capacity=40.0, boiler_max=25.0):
        super().__init__()
        self.start_hour = start_hour
        self.night_setback = night_setback
        self.tank_capacity = tank_capacity
        self.boiler_max = boiler_max
        self.demand = nn.Sequential(nn.Linear(4, 24), nn.ReLU(), nn.Linear(24, 1))

    def supply_temperature(self, outdoor, wind):
        if outdoor <= -15.0:
            supply = torch.full_like(outdoor, 110.0)
        elif outdoor >= 15.0:
            supply = torch.full_like(outdoor, 65.0)    # summer: hot-water only
        else:
            supply = 90.0 - 1.5 * outdoor
        if outdoor < 0.0 and wind > 8.0:
            supply = supply + 5.0
        return supply

    def forward(self, forecast):
        # forecast: (H, 3) outdoor temperature [C], wind [m/s], solar irradiance [kW/m2]
        tank = torch.tensor(self.tank_capacity / 2)
        supplies, levels, boiler = [], [], []
        for t in range(forecast.shape[0]):
            outdoor, wind, solar = forecast[t, 0], forecast[t, 1], forecast[t, 2]
            hour = (self.start_hour + t) % 24
            feats = torch.stack([outdoor / 10.0, wind / 10.0, solar, torch.tensor(hour / 24.0)])
            demand = 20.0 - 0.6 * outdoor + 2.0 * torch.tanh(self.demand(feats)[0])
            demand = demand.clamp(min=2.0)
            supply = self.supply_temperature(outdoor, wind)
            if self.night_setback and (hour < 6 or hour >= 22):
                supply = supply - 5.0
                demand = demand * 0.8
            produced = torch.clamp(demand, max=self.boiler_max)
            if demand > self.boiler_max or outdoor < -10.0:
                # shortfall (or cold snap): draw from storage
                draw = torch.minimum(demand - produced + 2.0, tank)
                tank = tank - draw
            elif demand < 0.6 * self.boiler_max and tank < self.tank_capacity - 0.5:
                # spare boiler capacity and real headroom in the tank: charge it
                charge = torch.minimum(self.boiler_max - demand, self.tank_capacity - tank)
                produced = produced + charge
                tank = torch.clamp(tank + charge, max=self.tank_capacity)
            supplies.append(supply)
            levels.append(tank)
            boiler.append(produced)
        return torch.stack(supplies), torch.stack(levels), torch.stack(boiler)


def model():
    torch.manual_seed(3904)
    return HeatingDispatch().eval()


def _make_forecast(temps, wind=4.0, solar=0.1):
    temps = torch.tensor(temps, dtype=torch.float32)
    n = temps.shape[0]
    wind = torch.full((n,), wind) if isinstance(wind, float) else torch.tensor(wind, dtype=torch.float32)
    return (torch.stack([temps, wind, torch.full((n,), solar)], 1),)


def example_inputs():
    # one mild autumn day (24 h): linear curve, night set-back, tank charging
    g = torch.Generator().manual_seed(1)
    temps = 6.0 + 5.0 * torch.sin(torch.arange(24.0) / 24 * 6.283 - 2.0) + 0.3 * torch.randn(24, generator=g)
    return _make_forecast(temps.tolist())


def dynamic_shapes():
    return ({0: torch.export.Dim("hours", min=2, max=168)},)


def verify_inputs():
    ex = example_inputs()   # the example: path described in example_inputs()
    # deep cold snap with wind (two days): <= -15 curve, wind-chill boost, demand > boiler_max
    # and outdoor < -10 -> storage drawn down to empty
    cold = _make_forecast([-18.0 + 2.5 * (i % 5) for i in range(48)], wind=10.5)
    # summer (>= 15): hot-water only, tank full so no charging (elif second operand false)
    summer = _make_forecast([19.0, 22.5, 25.0, 21.0, 18.5, 17.0])
    # two night hours below freezing: a calm hour (wind <= 8, no boost) then a windy one (boost)
    calm = _make_forecast([-3.0, -2.0], wind=[3.0, 12.0])
    # one week (168 h) of variable weather
    g = torch.Generator().manual_seed(2)
    t = (-5.0 + 12.0 * torch.sin(torch.arange(168.0) / 24 * 6.283) + 3.0 * torch.randn(168, generator=g))
    w = (6.0 + 4.0 * torch.rand(168, generator=g))
    week = _make_forecast(t.tolist(), wind=w.tolist())
    return [ex, cold, summer, calm, week]
