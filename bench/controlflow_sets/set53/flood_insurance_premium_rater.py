"""Flood insurance premium rating for a book of residential policies.

Each policy row is [elevation above base flood elevation (ft), building
coverage ($k), contents coverage ($k), flood zone (0 = A, 1 = V coastal,
2 = X), deductible ($k), prior flood claims].  Zone/elevation base rates,
deductible credits and a severe-repetitive-loss surcharge are applied per
policy, then a learned catastrophe-model multiplier (0.8 .. 1.2).
Returns (premium per policy in $, total written premium).
"""
import torch
import torch.nn as nn

ZONE_A, ZONE_V, ZONE_X = 0, 1, 2


class CatModelAdjuster(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, policies):
        x = policies / torch.tensor([5.0, 300.0, 100.0, 2.0, 5.0, 2.0])
        return 0.8 + 0.4 * torch.sigmoid(self.mlp(x)).squeeze(-1)


class FloodPremiumRater(nn.Module):
    def __init__(self):
        super().__init__()
        self.cat = CatModelAdjuster()
        self.contents_factor = 0.7
        self.icc_fee = 75.0
        self.srl_surcharge = 1.5
        self.schedule_credit = 0.95
        self.max_premium = 25000.0

    def _base_rate(self, zone, elev):
        """Annual rate per $100 of building coverage."""
        if zone == ZONE_V:
            if elev >= 1.0:
                return torch.full((), 1.2)
            # below BFE in a wave zone the rate climbs steeply
            return 3.5 - 0.5 * torch.clamp(elev, min=-6.0)
        elif zone == ZONE_A:
            return torch.clamp(1.5 - 0.3 * elev, 0.3, 4.0)
        return torch.full((), 0.35)

    def forward(self, policies):
        n = policies.shape[0]
        cat_mult = self.cat(policies)
        premiums = []
        for i in range(n):
            elev, bldg, cont, zone, ded, claims = policies[i].unbind()
            if bldg <= 0 and cont <= 0:
                premiums.append(torch.zeros(()))   # lapsed policy, nothing insured
                continue
            zone_id = int(zone.item())
            rate = self._base_rate(zone_id, elev)
            premium = rate * 10.0 * (bldg + self.contents_factor * cont)
            premium = premium * (0.85 if ded >= 5.0 else 1.0)
            if claims >= 2 and (elev < 0 or zone_id == ZONE_V):
                premium = premium * self.srl_surcharge
            premium = torch.clamp(premium * cat_mult[i], max=self.max_premium) + self.icc_fee
            premiums.append(premium)
        premiums = torch.stack(premiums)
        if n > 100:
            # large commercial schedules get a flat schedule credit
            premiums = premiums * self.schedule_credit
        return premiums, premiums.sum()


def model():
    torch.manual_seed(5309)
    return FloodPremiumRater().eval()


def example_inputs():
    return verify_inputs()[0]


def dynamic_shapes():
    policies = torch.export.Dim("policies", min=2, max=256)
    return ({0: policies},)


def verify_inputs():
    def book(n, seed):
        g = torch.Generator().manual_seed(seed)
        elev = torch.randn(n, generator=g) * 3.0
        bldg = 50.0 + 250.0 * torch.rand(n, generator=g)
        cont = 100.0 * torch.rand(n, generator=g)
        zone = torch.randint(0, 3, (n,), generator=g).float()
        ded = torch.tensor([1.0, 2.0, 5.0, 10.0])[torch.randint(0, 4, (n,), generator=g)]
        claims = torch.randint(0, 4, (n,), generator=g).float()
        return torch.stack([elev, bldg, cont, zone, ded, claims], dim=1)

    hand = torch.tensor([
        [2.0, 200.0, 50.0, 1.0, 1.0, 0.0],    # V zone above BFE, low deductible
        [0.0, 0.0, 0.0, 0.0, 1.0, 0.0],       # lapsed -> continue
        [3.0, 150.0, 40.0, 1.0, 5.0, 3.0],    # SRL: elev >= 0 but V zone (or 2)
        [-2.0, 180.0, 20.0, 0.0, 2.0, 2.0],   # SRL: below BFE in A zone (or 1)
        [1.0, 120.0, 0.0, 0.0, 10.0, 2.0],    # 2 claims, above BFE, A zone -> no SRL
        [0.5, 0.0, 30.0, 2.0, 1.0, 0.0],      # contents only, X zone
    ])
    return [
        # example: 40 random policies, every zone / deductible / claim mix
        (book(40, seed=1),),
        # 2 policies (min): V above BFE, lapsed
        (hand[:2].clone(),),
        # 256 policies (max) -> schedule credit (n > 100)
        (book(256, seed=2),),
        # 6 hand-written policies: both SRL or-operands, SRL and-operand false
        # with claims, contents-only policy
        (hand.clone(),),
    ]
