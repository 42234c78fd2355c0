"""Bus-bunching control for a high-frequency bus line.

Buses are listed from the front of the line backwards. For each follower bus
the controller estimates the time gap to the bus ahead. A bus that is too
close to its leader is held at its next stop; a bus that has fallen far
behind may skip upcoming low-demand stops (never transfer hubs) until the
predicted dwell time saved covers its lateness. Dwell times per stop are
predicted by a small network from the waiting passengers.

Kind X. Constructs: 1 (if/elif/else on tensor comparisons), 2 (branches assign
the same variable), 3 (`and not` on tensor predicates), 5 (for over the
dynamic number of buses and, nested, over the dynamic number of stops;
append + stack), 6 (continue for the lead bus and for stops already passed,
break once the lateness is recovered), 9 (Python branch on the loop index
`b == 0`). Loop inside a branch inside a loop, with early exits.
"""
import torch
import torch.nn as nn


class DwellModel(nn.Module):
    def __init__(self, hidden=8):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(1, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, waiting):
        # seconds: fixed door time + per-passenger boarding time, with a learned correction
        base = 8.0 + 2.5 * waiting
        return base * (1.0 + 0.1 * torch.tanh(self.net(waiting.unsqueeze(-1) / 10.0)).squeeze(-1))


class BunchingController(nn.Module):
    def __init__(self, target_headway_s=360.0, close_frac=0.6, late_frac=1.4, skip_max_waiting=2.5,
                 stop_penalty_s=25.0):
        super().__init__()
        self.target = target_headway_s
        self.close_frac = close_frac
        self.late_frac = late_frac
        self.skip_max_waiting = skip_max_waiting
        self.stop_penalty = stop_penalty_s  # braking, door cycle and pulling out
        self.dwell = DwellModel()

    def forward(self, bus_pos, bus_speed, stop_pos, stop_info):
        # bus_pos: (B,) m along the route, leader first; bus_speed: (B,) m/s
        # stop_pos: (S,) m; stop_info: (S, 2) [waiting passengers, transfer hub 0/1]
        dwell = self.dwell(stop_info[:, 0])
        holds, skips = [], []
        for b in range(bus_pos.shape[0]):
            skip = torch.zeros(stop_pos.shape[0])
            if b == 0:
                # the leader has no bus ahead to regulate against
                holds.append(torch.zeros(()))
                skips.append(skip)
                continue
            gap = (bus_pos[b - 1] - bus_pos[b]) / bus_speed[b].clamp(min=1.0)
            if gap < self.close_frac * self.target:
                hold = (self.target - gap) / 2.0
            elif gap > self.late_frac * self.target:
                hold = torch.zeros(())
                lateness = gap - self.target
                for s in range(stop_pos.shape[0]):
                    if stop_pos[s] <= bus_pos[b]:
                        continue  # already passed this stop
                    if lateness <= 0:
                        break
                    if stop_info[s, 0] < self.skip_max_waiting and not stop_info[s, 1] > 0.5:
                        skip[s] = 1.0
                        lateness = lateness - dwell[s] - self.stop_penalty
            else:
                hold = torch.zeros(())
            holds.append(hold)
            skips.append(skip)
        return torch.stack(holds), torch.stack(skips)


def model():
    torch.manual_seed(3417)
    return BunchingController().eval()


def _stops(n, seed, hubs=()):
    g = torch.Generator().manual_seed(seed)
    pos = torch.arange(n, dtype=torch.float32) * 400.0 + 200.0
    waiting = torch.randint(0, 8, (n,), generator=g).float()
    hub = torch.zeros(n)
    for h in hubs:
        hub[h] = 1.0
    return pos, torch.stack([waiting, hub], dim=1)


def example_inputs():
    stop_pos, info = _stops(20, 1, hubs=(5, 13))
    # leader, a bus bunched right behind it, a normal one, then a very late one
    bus_pos = torch.tensor([6980.0, 6400.0, 4150.0, 1180.0])
    bus_speed = torch.tensor([6.0, 6.5, 6.0, 5.5])
    return (bus_pos, bus_speed, stop_pos, info)


def dynamic_shapes():
    B = torch.export.Dim("buses", min=2, max=32)
    S = torch.export.Dim("stops", min=2, max=64)
    return ({0: B}, {0: B}, {0: S}, {0: S})


def verify_inputs():
    stop_pos, info = _stops(20, 1, hubs=(5, 13))
    s2, i2 = _stops(40, 2, hubs=(3, 10, 20, 30))
    g = torch.Generator().manual_seed(9)
    pos2 = torch.sort(torch.rand(12, generator=g) * 24000.0, descending=True).values
    speed2 = 4.0 + 4.0 * torch.rand(12, generator=g)
    return [
        # held bus, normal bus, late bus that skips stops until recovered (break), hubs never skipped,
        # stops behind each bus skipped via continue
        example_inputs(),
        # 12 buses at random positions on a 40-stop line (some beyond the last stop)
        (pos2, speed2, s2, i2),
        # two buses, the follower extremely late near the end of the line: runs out of stops
        # before recovering (loop ends without break)
        (torch.tensor([9000.0, 5000.0]), torch.tensor([6.0, 3.0]), stop_pos[:10] + 3000.0, info[:10]),
        # two buses, evenly spaced -> no action
        (torch.tensor([3000.0, 900.0]), torch.tensor([6.0, 6.0]), stop_pos[:5], info[:5]),
    ]
