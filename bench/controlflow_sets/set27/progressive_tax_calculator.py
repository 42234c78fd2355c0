"""Progressive income-tax calculator for a batch of households.

Amounts are in thousands. Walks the bracket table (a static Python list) and
stops as soon as no household reaches the next bracket.
"""
import torch
import torch.nn as nn

BRACKETS = [
    (0.0, 0.10),
    (11.0, 0.12),
    (44.7, 0.22),
    (95.4, 0.24),
    (182.1, 0.32),
    (231.2, 0.35),
    (578.1, 0.37),
]


class ProgressiveTaxCalculator(nn.Module):
    def __init__(self, brackets=BRACKETS, standard_deduction=14.6, allow_itemizing=True):
        super().__init__()
        self.brackets = list(brackets)
        self.standard_deduction = standard_deduction
        self.allow_itemizing = allow_itemizing
        # phase-out of itemized deductions above this income
        self.phaseout_start = 300.0
        self.phaseout_rate = 0.03

    def forward(self, income, itemized):
        # income, itemized: [N] (thousands)
        std = torch.full_like(income, self.standard_deduction)
        if self.allow_itemizing and (itemized > self.standard_deduction).any():
            reduced = itemized - self.phaseout_rate * (income - self.phaseout_start).clamp(min=0.0)
            deduction = torch.maximum(reduced, std)
        else:
            deduction = std
        if (income <= deduction).all():
            # nobody owes anything
            zeros = torch.zeros_like(income)
            return zeros, zeros
        taxable = (income - deduction).clamp(min=0.0)
        tax = torch.zeros_like(income)
        for i, (lower, rate) in enumerate(self.brackets):
            if (taxable <= lower).all():
                break  # nobody reaches this bracket
            upper = self.brackets[i + 1][0] if i + 1 < len(self.brackets) else float("inf")
            in_bracket = (taxable.clamp(max=upper) - lower).clamp(min=0.0)
            tax = tax + rate * in_bracket
        effective_rate = tax / income.clamp(min=1.0)
        return tax, effective_rate


def model():
    torch.manual_seed(0)
    return ProgressiveTaxCalculator().eval()


def _households(n, lo, hi, item_lo, item_hi, seed):
    g = torch.Generator().manual_seed(seed)
    income = lo + (hi - lo) * torch.rand(n, generator=g)
    itemized = item_lo + (item_hi - item_lo) * torch.rand(n, generator=g)
    return income, itemized


def example_inputs():
    return _households(6, 20.0, 150.0, 2.0, 12.0, 0)


def dynamic_shapes():
    N = torch.export.Dim("households", min=2, max=1024)
    return ({0: N}, {0: N})


def verify_inputs():
    return [
        # students/part-timers: everyone below the standard deduction -> early exit
        _households(5, 3.0, 13.5, 0.0, 5.0, 1),
        # modest incomes, nobody itemizes: stops after the 12% bracket
        _households(8, 20.0, 40.0, 1.0, 10.0, 2),
        # wide range incl. millionaires who itemize: every bracket visited, no break
        _households(12, 30.0, 900.0, 5.0, 60.0, 3),
        # middle class, some itemize: stops mid table
        _households(3, 60.0, 170.0, 10.0, 30.0, 4),
        # first jobs: everyone stays inside the 10% bracket
        _households(4, 16.0, 25.0, 0.0, 5.0, 6),
    ]
