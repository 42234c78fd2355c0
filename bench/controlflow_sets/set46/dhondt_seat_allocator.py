"""X: proportional-representation seat allocation (D'Hondt with an electoral threshold).

votes (P,) votes per party list, seats (1,) int64 number of seats in the district.
Returns seats per party (P,) and the vote share needed for the last seat (1,).
Constructs: 1, 2, 3, 4, 5, 7
"""
import torch
import torch.nn as nn


class DHondt(nn.Module):
    def __init__(self, threshold=0.05, cap_share=0.6):
        super().__init__()
        self.threshold = threshold
        self.cap_share = cap_share

    def _eligible(self, votes):
        share = votes / votes.sum()
        ok = share >= self.threshold
        # if nobody clears the threshold, it is waived (small-district rule)
        if not ok.any():
            return torch.ones_like(ok)
        return ok

    def _next_winner(self, votes, alloc, eligible, cap):
        q = votes / (alloc + 1.0)
        q = torch.where(eligible & (alloc < cap), q, torch.zeros_like(q))
        return torch.argmax(q), q.max()

    def forward(self, votes, seats):
        alloc = torch.zeros_like(votes)
        n_seats = int(seats.item())
        if n_seats == 0:
            return alloc, torch.zeros(1)
        eligible = self._eligible(votes)
        cap = float(max(1, int(self.cap_share * n_seats)))
        remaining = seats.clone().float()
        last_q = torch.zeros(())
        while remaining > 0:
            w, q = self._next_winner(votes, alloc, eligible, cap)
            if q <= 0:
                break  # every eligible list is capped: leave seats vacant
            alloc[w] += 1.0
            last_q = q
            remaining = remaining - 1
        return alloc, (last_q / votes.sum()).reshape(1)


def model():
    torch.manual_seed(4612)
    return DHondt().eval()


def example_inputs():
    return (torch.tensor([41237.0, 29113.0, 16271.0, 8537.0, 3119.0]), torch.tensor([7]))


def dynamic_shapes():
    return ({0: torch.export.Dim("parties", min=2, max=40)}, None)


def verify_inputs():
    many = torch.tensor([1000.0 + 137.0 * i + 11.0 * (i * i % 7) for i in range(40)])
    return [
        example_inputs(),                                       # normal allocation, smallest party below 5%
        (torch.tensor([5003.0, 2999.0]), torch.tensor([0])),    # zero seats: early return, P=min
        (torch.tensor([9001.0, 1013.0]), torch.tensor([1])),    # single seat: loop once
        (many, torch.tensor([12])),                             # P=max: every party < 5% -> threshold waived
        (torch.tensor([90001.0, 1009.0, 707.0]), torch.tensor([5])),  # cap 3 for the big list, others
                                                                # ineligible -> vacancies, break
    ]
