"""Life-annuity pricing with a Gompertz mortality table and underwriting.

For a block of annuitants (issue age + health questionnaire features) an
underwriting network produces a mortality multiplier (impaired lives get
higher mortality and therefore cheaper annuities). The expected present value
of the income stream is accumulated year by year until the whole block's
survival probability is negligible. Product options (payments in advance,
guarantee period) are configuration flags.

Kind: T.  Constructs: 1, 2, 4, 9.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class AnnuityPricer(nn.Module):
    def __init__(self, n_health=4, rate=0.035, gompertz_a=2e-5, gompertz_b=0.1,
                 tail_cutoff=0.01, max_issue_age=95.0, payments_in_advance=True,
                 guarantee_years=5):
        super().__init__()
        self.underwriting = nn.Sequential(nn.Linear(n_health, 8), nn.ReLU(), nn.Linear(8, 1))
        self.rate = rate
        self.a = gompertz_a
        self.b = gompertz_b
        self.tail_cutoff = tail_cutoff
        self.max_issue_age = max_issue_age
        self.payments_in_advance = payments_in_advance
        self.guarantee_years = guarantee_years

    def forward(self, ages, health, annual_payment):
        # ages: [B] issue ages; health: [B, 4]; annual_payment: [B]
        if (ages >= self.max_issue_age).all():
            # nobody in the block is eligible
            return torch.zeros_like(annual_payment), torch.zeros_like(ages)

        multiplier = torch.exp(0.3 * torch.tanh(self.underwriting(health))).squeeze(1)
        survival = torch.ones_like(ages)
        value = torch.zeros_like(annual_payment)
        if self.payments_in_advance:
            value = value + annual_payment
        discount = torch.ones(())
        age = ages.clone()
        expected_years = torch.zeros_like(ages)
        year = 0
        while survival.max() > self.tail_cutoff:
            q = torch.clamp(multiplier * self.a * torch.exp(self.b * age), max=1.0)
            survival = survival * (1.0 - q)
            discount = discount / (1.0 + self.rate)
            year += 1
            paid = survival
            if year <= self.guarantee_years:
                paid = torch.ones_like(survival)  # payments are certain during the guarantee period
            value = value + annual_payment * paid * discount
            expected_years = expected_years + survival
            age = age + 1.0
        value = torch.where(ages >= self.max_issue_age, torch.zeros_like(value), value)
        return value, expected_years


def model():
    torch.manual_seed(628)
    return AnnuityPricer().eval()


def _block(ages, seed):
    g = torch.Generator().manual_seed(seed)
    ages = torch.tensor(ages)
    return ages, torch.randn(ages.shape[0], 4, generator=g), 1000.0 + 100.0 * torch.arange(ages.shape[0]).float()


def example_inputs():
    return _block([65.0, 70.0, 58.0, 80.0], 1)


def dynamic_shapes():
    b = Dim("annuitants", min=2, max=256)
    return ({0: b}, {0: b}, {0: b})


def verify_inputs():
    return [
        example_inputs(),                     # mixed block: valuation loop runs ~50 years
        _block([96.0, 99.0], 2),              # everyone above the max issue age: early return, loop never runs
        _block([90.0, 97.0, 93.0], 3),        # mostly very old: short loop, one ineligible life zeroed
        _block([50.0 + k for k in range(12)], 4),  # 12 younger lives: longest loop
    ]
