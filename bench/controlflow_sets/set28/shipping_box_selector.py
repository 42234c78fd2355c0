"""E-commerce fulfilment: pick a carton (or freight) for an order and estimate the shipping cost."""
import torch
import torch.nn as nn

BOXES = torch.tensor([[20.0, 15.0, 10.0], [40.0, 30.0, 20.0], [60.0, 40.0, 40.0]])


class DamageRisk(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 1))

    def forward(self, fill, total_weight, fragile_count, n_items, longest):
        feats = torch.stack([fill, total_weight / 10.0, fragile_count, n_items / 10.0, longest / 50.0])
        risk = torch.sigmoid(self.net(feats))[0]
        if fragile_count > 0:
            risk = torch.maximum(risk, torch.full_like(risk, 0.2))
        return risk


class BoxSelector(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("boxes", BOXES.clone())
        self.register_buffer("base_cost", torch.tensor([4.0, 7.5, 12.0]))
        self.per_kg = 0.9
        self.freight_per_kg = 2.5
        self.risk = DamageRisk()

    def forward(self, item_dims, item_weights, fragile):
        # item_dims [K, 3] cm, item_weights [K] kg, fragile [K] bool
        volume = item_dims.prod(1).sum()
        longest = item_dims.max()
        total_w = item_weights.sum()
        if longest > 55.0 or total_w > 30.0:
            # pallet freight: no carton
            return torch.stack([torch.tensor(-1.0), self.freight_per_kg * total_w, torch.zeros(())])
        if volume < 1500.0 and longest < 18.0:
            box = 0
        elif volume < 12000.0 and longest < 38.0:
            box = 1
        else:
            box = 2
        box_volume = self.boxes[box].prod()
        fill = volume / box_volume
        cost = self.base_cost[box] + self.per_kg * total_w
        if fill < 0.3 and not fragile.any():
            cost = cost * 0.9   # loose fill, cheaper dunnage
        risk = self.risk(fill, total_w, fragile.float().sum(), torch.tensor(float(item_dims.shape[0])), longest)
        return torch.stack([torch.tensor(float(box)), cost, risk])


def model():
    torch.manual_seed(0)
    return BoxSelector().eval()


def _case(dims, weights, fragile):
    return (torch.tensor(dims), torch.tensor(weights), torch.tensor(fragile))


def example_inputs():
    return _case([[10.0, 8.0, 5.0], [12.0, 6.0, 4.0]], [0.5, 0.8], [False, False])


def dynamic_shapes():
    k = torch.export.Dim("items", min=2, max=50)
    return ({0: k}, {0: k}, {0: k})


def verify_inputs():
    return [
        _case([[10.0, 8.0, 5.0], [12.0, 6.0, 4.0]], [0.5, 0.8], [False, True]),                 # small box, fragile
        _case([[30.0, 20.0, 10.0], [15.0, 10.0, 5.0], [9.0, 9.0, 9.0]], [2.0, 1.0, 1.5], [False, False, False]),  # medium
        _case([[50.0, 30.0, 30.0], [20.0, 20.0, 20.0]], [6.0, 3.0], [False, False]),            # large
        _case([[70.0, 10.0, 10.0], [5.0, 5.0, 5.0]], [3.0, 0.2], [False, False]),               # too long -> freight
        _case([[20.0, 20.0, 20.0], [20.0, 20.0, 20.0]], [20.0, 15.0], [True, False]),           # too heavy -> freight
        _case([[5.0, 5.0, 5.0], [4.0, 4.0, 4.0], [6.0, 3.0, 2.0]], [0.1, 0.1, 0.1], [False, False, False]),  # loose fill discount
    ]
