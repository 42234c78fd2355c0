"""Health-insurance claim adjudication: member cost sharing over a plan year.

Claims arrive in date order. A small network estimates the negotiated (allowed)
amount from the billed amount and the service category; then the plan rules are
applied claim by claim: voided/reversed claims are skipped, preventive care is
free, otherwise the member pays the remaining deductible first and coinsurance
after that, until the out-of-pocket maximum is reached.

Kind: T. Constructs: 1, 2, 5, 6.
"""
import torch
from torch import nn
from torch.export import Dim

PREVENTIVE = 0
N_SERVICE_CODES = 8


class CostSharingAdjudicator(nn.Module):
    def __init__(self, deductible=1500.0, coinsurance=0.2, oop_max=4000.0):
        super().__init__()
        self.code_emb = nn.Embedding(N_SERVICE_CODES, 8)
        self.discount = nn.Sequential(nn.Linear(9, 16), nn.ReLU(), nn.Linear(16, 1))
        self.register_buffer("deductible", torch.tensor(deductible))
        self.register_buffer("oop_max", torch.tensor(oop_max))
        self.coinsurance = coinsurance

    def allowed_amounts(self, billed, codes):
        feats = torch.cat([self.code_emb(codes), torch.log1p(billed.clamp(min=0)).unsqueeze(-1) / 10], dim=-1)
        frac = 0.4 + 0.5 * torch.sigmoid(self.discount(feats)).squeeze(-1)
        return billed * frac

    def forward(self, billed, codes):
        allowed = self.allowed_amounts(billed, codes)
        ded_left = self.deductible.clone()
        oop_left = self.oop_max.clone()
        member, plan = [], []
        for i in range(billed.shape[0]):
            if billed[i] < 0.01:
                continue  # voided (zero) or reversed (negative) claim
            amount = allowed[i]
            if codes[i] == PREVENTIVE:
                share = torch.zeros_like(amount)
            elif oop_left < 0.01:
                share = torch.zeros_like(amount)  # out-of-pocket maximum already met
            else:
                from_deductible = torch.minimum(amount, ded_left)
                ded_left = ded_left - from_deductible
                share = from_deductible + (amount - from_deductible) * self.coinsurance
                share = torch.minimum(share, oop_left)
                oop_left = oop_left - share
            member.append(share)
            plan.append(amount - share)
        if len(member) == 0:
            empty = billed.new_zeros(0)
            return empty, empty, billed.new_zeros(1)
        member_t = torch.stack(member)
        return member_t, torch.stack(plan), member_t.sum().reshape(1)


def model():
    torch.manual_seed(4202)
    return CostSharingAdjudicator().eval()


def example_inputs():
    billed = torch.tensor([220.0, 1800.0, 0.0, 350.0, 95.0, 640.0])
    codes = torch.tensor([1, 3, 2, 0, 5, 4])
    return billed, codes


def dynamic_shapes():
    n = Dim("claims", min=2, max=128)
    return ({0: n}, {0: n})


def verify_inputs():
    return [
        # deductible partly met, one voided claim skipped, one preventive visit, OOP max not reached
        example_inputs(),
        # surgery blows through deductible and OOP max; later claims hit "OOP met" branch,
        # a reversal (negative billed) is skipped, preventive visit after OOP met
        (torch.tensor([900.0, 48000.0, -900.0, 1200.0, 150.0, 30000.0, 75.0]),
         torch.tensor([2, 6, 2, 3, 0, 7, 1])),
        # every claim voided -> nothing adjudicated, empty early return
        (torch.tensor([0.0, -120.0, 0.0]), torch.tensor([1, 1, 4])),
        # two small claims, both entirely within the deductible
        (torch.tensor([80.0, 130.0]), torch.tensor([5, 6])),
    ]
