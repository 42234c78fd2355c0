"""Home battery price-arbitrage scheduler.

A small network nudges the day-ahead electricity price forecast using the
household load forecast; a rule-based dispatcher then walks the horizon hour by
hour, charging when power is cheap, discharging into the house load when it is
expensive, and tracking the battery's state of charge.

Kind T. Constructs: 1 (if/elif/else on tensor comparisons), 2 (branches assign
the same variables), 3 (`and` of tensor predicates), 5 (for over the dynamic
horizon, append + stack), 9 (config flag `allow_grid_export`, static config).
"""
import torch
import torch.nn as nn


class PriceCorrector(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, price, load):
        feats = torch.stack([price, load / 5.0], dim=-1)
        # forecast correction is bounded to +-1 ct/kWh
        return price + 0.01 * torch.tanh(self.net(feats)).squeeze(-1)


class BatteryArbitrage(nn.Module):
    def __init__(self, capacity_kwh=10.0, max_rate_kw=3.0, reserve_frac=0.2,
                 efficiency=0.92, cheap_price=0.15, peak_price=0.30,
                 allow_grid_export=False):
        super().__init__()
        self.capacity = capacity_kwh
        self.max_rate = max_rate_kw
        self.reserve = reserve_frac * capacity_kwh
        self.efficiency = efficiency
        self.cheap_price = cheap_price
        self.peak_price = peak_price
        self.allow_grid_export = allow_grid_export
        self.corrector = PriceCorrector()

    def forward(self, price, load, soc0):
        # price: (H,) $/kWh, load: (H,) kWh, soc0: (1,) kWh
        price = self.corrector(price, load)
        soc = soc0.clone()
        actions, socs = [], []
        for h in range(price.shape[0]):
            if price[h] < self.cheap_price and soc < self.capacity:
                before = soc
                soc = torch.clamp(soc + self.max_rate * self.efficiency, max=self.capacity)
                action = (soc - before) / self.efficiency
            elif price[h] > self.peak_price and soc > self.reserve:
                energy = torch.full_like(soc, self.max_rate)
                if not self.allow_grid_export:
                    energy = torch.minimum(energy, load[h:h + 1])
                before = soc
                soc = torch.clamp(soc - energy, min=self.reserve)
                action = soc - before
            else:
                action = torch.zeros_like(soc)
            actions.append(action)
            socs.append(soc)
        schedule = torch.cat(actions)
        grid = load + schedule
        cost = (price * grid).sum().reshape(1)
        return schedule, torch.cat(socs), cost


def model():
    torch.manual_seed(3401)
    return BatteryArbitrage().eval()


def _day(hours, seed):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(hours, dtype=torch.float32)
    # night cheap (0.08-0.11), midday mid (0.20-0.24), evening peak (0.38-0.45)
    base = torch.where((t % 24) < 6, torch.tensor(0.09),
                       torch.where((t % 24) >= 17, torch.tensor(0.41), torch.tensor(0.22)))
    price = base + 0.02 * torch.rand(hours, generator=g) - 0.01
    load = 0.5 + 1.5 * torch.rand(hours, generator=g)
    return price, load


def example_inputs():
    price, load = _day(24, 7)
    return (price, load, torch.tensor([4.0]))


def dynamic_shapes():
    H = torch.export.Dim("hours", min=2, max=96)
    return ({0: H}, {0: H}, None)


def verify_inputs():
    ex = example_inputs()
    p2, l2 = _day(48, 11)
    return [
        # full day: charge at night (until full, then cheap-but-full -> idle),
        # midday idle, evening discharge down to reserve (then peak-but-empty -> idle)
        ex,
        # two days from a nearly empty battery: long charge ramps, several cycles
        (p2, l2, torch.tensor([2.5])),
        # 3 hours, all expensive, battery below its reserve (after an outage): only the else branch
        (torch.tensor([0.42, 0.40, 0.44]), torch.tensor([1.0, 1.2, 0.8]), torch.tensor([1.5])),
        # 2 hours cheap then peak with a big load: charge, then discharge at max rate
        (torch.tensor([0.05, 0.50]), torch.tensor([0.7, 4.5]), torch.tensor([6.0])),
    ]
