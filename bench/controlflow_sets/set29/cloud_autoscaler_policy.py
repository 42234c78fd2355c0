"""Reactive autoscaling policy for a web service, replayed over a request-rate trace.

Every minute the policy looks at utilisation (demand incl. queued backlog over capacity).
Above the high-water mark it scales out (by two servers on a severe overload), below the
low-water mark it scales in by one, and after every scaling action it waits out a cooldown.
Unserved demand is carried over as backlog.  Returns the server count after every step, the
backlog series and the number of scaling actions.
"""
import torch
from torch import nn


class CloudAutoscalerPolicy(nn.Module):
    def __init__(self, per_server=100.0, high=0.8, low=0.3, severe=1.2, min_servers=1,
                 max_servers=12, cooldown=3):
        super().__init__()
        self.per_server = per_server
        self.high = high
        self.low = low
        self.severe = severe
        self.min_servers = min_servers
        self.max_servers = max_servers
        self.cooldown = cooldown
        self.predictive = False
        self.forecaster = nn.Linear(4, 1)

    def forward(self, requests, servers0):
        # requests: [T] requests/min, servers0: [] int64 initial fleet size
        servers = servers0
        backlog = torch.zeros(())
        cooldown = 0
        actions = 0
        fleet, queue = [], []
        for t in range(requests.shape[0]):
            demand = requests[t] + backlog
            if self.predictive and t >= 4:
                demand = torch.maximum(demand, self.forecaster(requests[t - 4:t])[0])
            capacity = servers * self.per_server
            util = demand / capacity
            backlog = torch.clamp(demand - capacity, min=0.0)
            if cooldown > 0:
                cooldown -= 1
            elif util > self.high and servers < self.max_servers:
                step = 2 if util > self.severe else 1
                servers = torch.clamp(servers + step, max=self.max_servers)
                cooldown = self.cooldown
                actions += 1
            elif util < self.low and servers > self.min_servers:
                servers = servers - 1
                cooldown = self.cooldown
                actions += 1
            fleet.append(servers)
            queue.append(backlog)
        return torch.stack(fleet), torch.stack(queue), torch.tensor(actions)


def model():
    torch.manual_seed(0)
    return CloudAutoscalerPolicy().eval()


def _make(levels, seed, servers):
    g = torch.Generator().manual_seed(seed)
    base = torch.tensor(levels)
    return base * (1.0 + 0.05 * (torch.rand(len(levels), generator=g) - 0.5)), torch.tensor(servers)


def example_inputs():
    return _make([150.0, 180.0, 260.0, 300.0, 320.0, 310.0, 200.0, 120.0, 60.0, 50.0], 0, 2)


def dynamic_shapes():
    return ({0: torch.export.Dim("minutes", min=2, max=240)}, None)


def verify_inputs():
    return [
        # flash crowd: severe overload, scale out to the cap with backlog
        _make([200.0, 900.0, 1100.0, 1300.0] + [1400.0] * 24, 1, 2),
        # quiet night: scale in down to the minimum
        _make([20.0] * 14, 2, 4),
        # steady moderate load: nothing to do
        _make([250.0, 260.0, 240.0, 255.0], 3, 5),
        # gentle ramp: single-server steps
        _make([100.0, 190.0, 200.0, 210.0, 220.0, 300.0, 310.0, 320.0, 330.0], 4, 2),
        example_inputs(),
    ]
