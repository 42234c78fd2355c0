"""Beer Distribution Game: four-echelon supply chain (retailer, wholesaler,
distributor, factory) with shipping delays. Two echelons follow a base-stock
rule, two a learned ordering policy; everyone panic-orders when their shelves
run empty. The game stops early if the chain's total backlog explodes.
Returns the weekly inventory / backlog history and the total cost.

Kind X; constructs 1, 2, 3, 5, 6, 7, 9."""
import torch
import torch.nn as nn
from torch.export import Dim


class Echelon(nn.Module):
    def __init__(self, policy, base_stock=12.0):
        super().__init__()
        self.policy = policy            # "base_stock" or "learned"
        self.base_stock = base_stock
        self.net = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))
        self.panic_level = -6.0

    def forward(self, inventory, backlog, incoming, on_order):
        position = inventory - backlog + on_order
        if self.policy == "base_stock":
            order = torch.clamp(self.base_stock - position + incoming, min=0.0)
        else:
            z = torch.stack([inventory, backlog, incoming, on_order]) / 10
            order = torch.clamp(incoming + 2.0 * torch.tanh(self.net(z))[0], min=0.0)
        if inventory - backlog < self.panic_level or backlog > 20:
            order = order * 1.5         # shelves empty: over-order
        return order


class BeerGame(nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(420)
        self.echelons = nn.ModuleList([
            Echelon("base_stock", 12.0),    # retailer
            Echelon("learned"),             # wholesaler
            Echelon("base_stock", 16.0),    # distributor
            Echelon("learned"),             # factory
        ])
        self.lead_time = 2
        self.holding_cost = 0.5
        self.backlog_cost = 1.0
        self.max_backlog = 80.0

    def forward(self, demand, inventory0):
        # demand: [T] customer orders per week, inventory0: [4] starting stock per echelon
        n = len(self.echelons)
        inv = list(inventory0.unbind(0))
        backlog = [torch.zeros_like(inv[0]) for _ in range(n)]
        steady = torch.full_like(inv[0], 4.0)
        pipeline = [[steady] * self.lead_time for _ in range(n)]        # shipments on the way to each echelon
        on_order = [steady * self.lead_time for _ in range(n)]
        history = []
        cost = torch.zeros_like(inv[0])
        for week in range(demand.shape[0]):
            incoming = demand[week]
            for k, echelon in enumerate(self.echelons):
                arrived = pipeline[k].pop(0)
                inv[k] = inv[k] + arrived
                on_order[k] = on_order[k] - arrived
                owed = incoming + backlog[k]
                if inv[k] >= owed:
                    shipped = owed
                    backlog[k] = torch.zeros_like(owed)
                else:
                    shipped = inv[k]
                    backlog[k] = owed - inv[k]
                inv[k] = inv[k] - shipped
                if k > 0:
                    pipeline[k - 1].append(shipped)                    # ship downstream
                order = echelon(inv[k], backlog[k], incoming, on_order[k])
                on_order[k] = on_order[k] + order
                incoming = order                                       # becomes the next echelon's demand
            pipeline[n - 1].append(incoming)                           # factory brews its own order
            cost = cost + self.holding_cost * sum(inv) + self.backlog_cost * sum(backlog)
            history.append(torch.stack(inv + backlog))
            if sum(backlog) > self.max_backlog:
                break                                                  # chain collapsed: game over
        return torch.stack(history), cost


def model():
    return BeerGame().eval()


def example_inputs():
    # the classic step: demand jumps from 4 to 8 cases a week in week 5
    return torch.tensor([4.0] * 4 + [8.0] * 16), torch.full((4,), 12.0)


def dynamic_shapes():
    return ({0: Dim("weeks", min=2, max=52)}, None)


def verify_inputs():
    g = torch.Generator().manual_seed(3)
    seasonal = 6 + 3 * torch.sin(torch.arange(52) * 2 * 3.14159265 / 52) + torch.rand(52, generator=g)
    return [
        example_inputs(),                                         # step demand: backlogs and panic orders appear
        (torch.tensor([4.0, 4.0]), torch.full((4,), 12.0)),       # min length, steady state: no backlog
        (torch.full((10,), 30.0), torch.full((4,), 4.0)),         # demand surge on empty shelves -> backlog explodes, break
        (seasonal, torch.full((4,), 15.0)),                       # max length, seasonal demand
    ]
