"""Motor insurance no-claims-bonus (NCB) ladder: premiums over a policy history.

Each policy year the premium is the base premium times a learned driver risk loading times
the NCB discount of the current level. Claim-free years climb the ladder; a single small
claim can be reimbursed by the customer to keep the bonus; with protected NCB one claim
every three years is absorbed from level 4 up; otherwise one claim drops two levels, more
claims reset the ladder and three or more make the insurer decline renewal.

Kind: X.  Constructs: 1, 2, 3, 5, 6, 9.
"""
import torch
import torch.nn as nn
from torch.export import Dim

DISCOUNTS = [0.0, 0.10, 0.20, 0.30, 0.40, 0.50, 0.60, 0.65]


class NoClaimsBonusLadder(nn.Module):
    def __init__(self, protected=True, small_claim=400.0):
        super().__init__()
        self.protected = protected
        self.small_claim = small_claim
        self.max_level = len(DISCOUNTS) - 1
        self.register_buffer("discounts", torch.tensor(DISCOUNTS))
        self.risk = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, claims, amounts, driver, base_premium):
        # claims: (Y,) at-fault claims per policy year, amounts: (Y,) claim cost per year,
        # driver: (3,) [age/100, vehicle group/50, annual km/1e5], base_premium: ()
        loading = 1.0 + 0.5 * torch.sigmoid(self.risk(driver)).squeeze(-1)
        level = 0
        protection_used = -10
        reimbursed = torch.zeros(())
        premiums = []
        levels = []
        for y in range(claims.shape[0]):
            premiums.append(base_premium * loading * (1.0 - self.discounts[level]))
            levels.append(torch.tensor(level))
            if claims[y] == 0:
                level = min(level + 1, self.max_level)
                continue
            if claims[y] == 1 and amounts[y] < self.small_claim:
                # customer pays the small claim back to keep the bonus
                reimbursed = reimbursed + amounts[y]
                continue
            if claims[y] >= 3:
                # renewal declined
                break
            if claims[y] == 1 and self.protected and level >= 4 and y - protection_used >= 3:
                protection_used = y
            elif claims[y] == 1:
                level = max(level - 2, 0)
            else:
                level = 0
        return torch.stack(premiums), torch.stack(levels), reimbursed


def model():
    torch.manual_seed(12)
    return NoClaimsBonusLadder().eval()


_DRIVER = [0.42, 0.30, 0.15]


def _policy(claims, amounts, driver=_DRIVER, base=780.0):
    return (torch.tensor(claims), torch.tensor(amounts), torch.tensor(driver), torch.tensor(base))


def example_inputs():
    # 10 years: climbs, small claim reimbursed, protected claim at level 5, unprotected claim
    return _policy([0, 0, 0, 0, 1, 0, 1, 0, 1, 0],
                   [0.0, 0.0, 0.0, 0.0, 250.0, 0.0, 3200.0, 0.0, 1800.0, 0.0])


def dynamic_shapes():
    y = Dim("years", min=2, max=60)
    return ({0: y}, {0: y}, None, None)


def verify_inputs():
    return [
        # reimbursed small claim, protection used (level >= 4), then protection still blocked
        # by the 3-year rule -> drop two levels; loop runs to the end
        example_inputs(),
        # new driver: claim in year 1 at level 0..1 (no protection: level < 4) -> max(.., 0)
        _policy([0, 1, 0, 2, 0], [0.0, 900.0, 0.0, 5100.0, 0.0], driver=[0.19, 0.6, 0.3]),
        # three claims in one year: renewal declined (break), premiums stop early
        _policy([0, 0, 3, 0, 0, 0], [0.0, 0.0, 12000.0, 0.0, 0.0, 0.0], base=650.0),
        # long clean history: ladder tops out at the maximum level
        _policy([0] * 12, [0.0] * 12, driver=[0.55, 0.2, 0.08]),
        # two multi-claim years: reset to level 0 twice (the `else`)
        _policy([0, 0, 2, 0, 0, 0, 0, 0, 2], [0.0, 0.0, 4000.0, 0.0, 0.0, 0.0, 0.0, 0.0, 650.0]),
    ]
