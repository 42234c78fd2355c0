"""Credit decision for one applicant: hard policy rules + a learned score.

Inputs: the applicant profile (static feature vector) and the applicant's
existing credit lines (variable number of rows).  Hard rules can decline
immediately; otherwise a pricing tier is chosen from the debt-to-income ratio
and delinquency flags and an MLP score adjusts the offered rate.

profile = [monthly_income, age_years/100, employment_years/40, has_collateral,
           requested_amount, term_years/30]
credit line = [limit, balance, utilisation, months_open/120, days_past_due/90]
Output: [approve_probability, interest_rate, tier]
"""
import torch
import torch.nn as nn

BASE_RATES = (0.045, 0.07, 0.11)


class LineEncoder(nn.Module):
    def __init__(self, d_line=5, d=16):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(d_line, d), nn.Tanh(), nn.Linear(d, d))

    def forward(self, lines):
        e = self.mlp(lines)
        # attention-free set pooling: mean + max
        return torch.cat([e.mean(0), e.amax(0)])


class LoanRiskEngine(nn.Module):
    def __init__(self, min_income=0.5, max_dti=0.6, mid_dti=0.35):
        super().__init__()
        self.min_income = min_income
        self.max_dti = max_dti
        self.mid_dti = mid_dti
        self.lines = LineEncoder()
        self.score = nn.Sequential(nn.Linear(6 + 32, 32), nn.ReLU(), nn.Linear(32, 1))

    def decline(self, reason_code):
        return torch.tensor([0.0, 0.0, float(reason_code)])

    def forward(self, profile, lines):
        income = profile[0]
        if income < self.min_income:
            return self.decline(-1)
        debt = lines[:, 1].sum() + profile[4] / (30.0 * profile[5] * 12.0)
        dti = debt / income
        has_collateral = profile[3] > 0.5
        if dti > self.max_dti and not has_collateral:
            return self.decline(-2)

        delinquent = lines[:, 4] > 0.33          # more than 30 days past due
        if delinquent.any() or bool(lines[:, 2].max() > 0.9):
            tier = 2
        elif dti > self.mid_dti:
            tier = 1
        else:
            tier = 0

        p = torch.sigmoid(self.score(torch.cat([profile, self.lines(lines)])))[0]
        adj = (0.5 - p) * 0.04 if p < 0.5 else p * 0.0
        rate = BASE_RATES[tier] + adj
        if has_collateral:
            rate = rate - 0.01
        return torch.stack([p, rate, torch.tensor(float(tier))])


def model():
    torch.manual_seed(0)
    m = LoanRiskEngine()
    with torch.no_grad():
        m.score[2].weight.mul_(4.0)
        m.score[2].bias.fill_(0.8)
    return m.eval()


def _lines(g, n, balance=0.05, util_max=0.8, dpd=0.0):
    lim = 0.5 + torch.rand(n, 1, generator=g)
    bal = balance * (0.5 + torch.rand(n, 1, generator=g))
    util = util_max * (0.2 + 0.8 * torch.rand(n, 1, generator=g))
    age = torch.rand(n, 1, generator=g)
    past_due = torch.full((n, 1), dpd)
    return torch.cat([lim, bal, util, age, past_due], 1)


def _profile(income, collateral, amount=2.0, term=0.2):
    return torch.tensor([income, 0.35, 0.2, collateral, amount, term])


def example_inputs():
    g = torch.Generator().manual_seed(0)
    return (_profile(3.0, 0.0), _lines(g, 4))


def dynamic_shapes():
    return (None, {0: torch.export.Dim("n_lines", min=2, max=32)})


def verify_inputs():
    g = torch.Generator().manual_seed(6)
    bad = _lines(g, 3)
    bad[1, 4] = 0.7
    return [
        (_profile(0.2, 1.0), _lines(g, 3)),                    # income too low
        (_profile(1.0, 0.0), _lines(g, 5, balance=0.3)),       # dti too high, no collateral
        (_profile(1.0, 1.0), _lines(g, 5, balance=0.3)),       # dti high but collateral -> tier 1
        (_profile(3.0, 0.0), bad),                             # delinquent -> tier 2
        (_profile(3.0, 0.0), _lines(g, 4, util_max=1.2)),      # maxed out card -> tier 2
        (_profile(1.5, 0.0), _lines(g, 6, balance=0.12)),      # tier 1 via dti
        (_profile(6.0, 1.0), _lines(g, 2)),                    # tier 0
        (_profile(4.0, 0.0), _lines(g, 8)),                    # tier 0
    ]
