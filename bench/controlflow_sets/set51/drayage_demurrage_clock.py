"""Port drayage demurrage/detention charge calculator.

Per container: days at terminal, free days, size flag (0=20ft, 1=40ft),
reefer flag.  Tiered per-diem after free time; reefer plug surcharge; volume
discount for big importers.
"""
import torch
import torch.nn as nn


class DemurrageClock(nn.Module):
    def __init__(self, volume_discount_threshold=100):
        super().__init__()
        self.volume_discount_threshold = volume_discount_threshold
        self.register_buffer("tier_rates", torch.tensor([75.0, 150.0, 300.0]))
        # predicts extra days until pickup from congestion features
        self.pickup_delay = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1), nn.Softplus())

    def container_charge(self, days_over, size40, reefer):
        surcharge = torch.zeros(())
        if days_over <= 0:
            return torch.zeros(())
        elif days_over <= 4:
            base = days_over * self.tier_rates[0]
        elif days_over <= 9:
            base = 4 * self.tier_rates[0] + (days_over - 4) * self.tier_rates[1]
        else:
            base = 4 * self.tier_rates[0] + 5 * self.tier_rates[1] + (days_over - 9) * self.tier_rates[2]
        if reefer > 0.5:
            surcharge = 45.0 * days_over
        return base * (1.0 + size40) + surcharge

    def forward(self, boxes):
        expected = boxes[:, 0] + self.pickup_delay(boxes).squeeze(-1).round()
        days_over = expected - boxes[:, 1]
        charges = []
        for i in range(boxes.shape[0]):
            charges.append(self.container_charge(days_over[i], boxes[i, 2], boxes[i, 3]))
        charges = torch.stack(charges)
        if boxes.shape[0] > self.volume_discount_threshold:
            charges = charges * 0.9
        return charges, charges.sum()


def model():
    torch.manual_seed(5105)
    return DemurrageClock().eval()


def _boxes(n, seed):
    g = torch.Generator().manual_seed(seed)
    days = torch.randint(0, 25, (n,), generator=g).float()
    free = torch.full((n,), 5.0)
    size40 = torch.randint(0, 2, (n,), generator=g).float()
    reefer = (torch.rand(n, generator=g) < 0.3).float()
    return torch.stack([days, free, size40, reefer], dim=1)


def example_inputs():
    return (_boxes(30, 1),)


def dynamic_shapes():
    return ({0: torch.export.Dim("containers", min=2, max=400)},)


def verify_inputs():
    return [
        # example: mix of all tiers (free, tier1, tier2, tier3), reefers, no discount
        example_inputs(),
        # min: both inside free time -> early return in helper
        (torch.tensor([[0.0, 10.0, 0.0, 0.0], [1.0, 10.0, 1.0, 1.0]]),),
        # max: big importer -> volume discount branch
        (_boxes(400, 2),),
    ]
