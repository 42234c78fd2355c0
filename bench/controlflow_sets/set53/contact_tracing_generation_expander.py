"""Generation-by-generation contact tracing for an outbreak team.

contacts[i, j] is the exposure time in hours between persons i and j,
index_cases marks confirmed cases and trace_days is the look-back window;
with a 5-day serial interval it allows trace_days // 5 generations.  Each
generation expands from the previous one over contacts longer than 15 min,
with a transmission risk from a learned-corrected exposure model, until the
chain closes.  If more people are traced than the call centre can follow up,
the lowest-risk ones are dropped.
Returns (generation per person: -1 untraced, -2 dropped; risk per person;
expected new cases per generation; window-exhausted flag).
"""
import torch
import torch.nn as nn


class TransmissionRisk(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, hours, generation):
        base = 1.0 - torch.exp(-0.15 * hours)
        x = torch.stack([torch.log1p(hours), torch.tensor(generation / 5.0)]).unsqueeze(0)
        return torch.clamp(base * (1.0 + 0.2 * torch.tanh(self.mlp(x)).squeeze()), 0.0, 1.0)


class ContactTracer(nn.Module):
    def __init__(self):
        super().__init__()
        self.risk_model = TransmissionRisk()
        self.serial_interval_days = 5
        self.min_hours = 0.25
        self.min_risk = 0.05
        self.capacity = 30

    def forward(self, contacts, index_cases, trace_days):
        n = contacts.shape[0]
        max_gen = int(trace_days.item()) // self.serial_interval_days
        generation = torch.full((n,), -1, dtype=torch.long)
        risk = torch.zeros(n)
        frontier = index_cases.nonzero().flatten().tolist()
        for i in frontier:
            generation[i] = 0
            risk[i] = 1.0

        per_generation = []
        exhausted = 0
        for g in range(1, max_gen + 1):
            new = []
            for src in frontier:
                exposed = (contacts[src] > self.min_hours).nonzero().flatten()
                for dst in exposed.tolist():
                    if generation[dst] >= 0:
                        continue           # already on the list
                    r = risk[src] * self.risk_model(contacts[src, dst], g)
                    if r < self.min_risk:
                        continue
                    generation[dst] = g
                    risk[dst] = r
                    new.append(dst)
            if not new:
                break                      # the chain of transmission is closed
            per_generation.append(risk[torch.tensor(new)].sum())   # expected cases
            frontier = new
        else:
            exhausted = 1                  # window used up with the chain still open

        followed = generation > 0
        while followed.sum() > self.capacity:
            lowest = torch.argmin(torch.where(followed, risk, torch.full_like(risk, 2.0)))
            followed[lowest] = False
            generation[lowest] = -2
        expected = torch.stack(per_generation) if per_generation else torch.zeros(0)
        return generation, risk, expected, torch.tensor(exhausted, dtype=torch.long)


def model():
    torch.manual_seed(5316)
    return ContactTracer().eval()


def example_inputs():
    return verify_inputs()[0]


def dynamic_shapes():
    people = torch.export.Dim("people", min=2, max=96)
    return ({0: people, 1: people}, {0: people}, None)


def verify_inputs():
    def network(n, density, seed, index):
        g = torch.Generator().manual_seed(seed)
        hours = 0.1 + 8.0 * torch.rand(n, n, generator=g)
        mask = torch.rand(n, n, generator=g) < density
        c = torch.triu(hours * mask, diagonal=1)
        c = c + c.T
        cases = torch.zeros(n)
        cases[index] = 1.0
        return c, cases

    return [
        # example: 40 people, 15-day window -> 3 generations; already-traced
        # contacts and low-risk short exposures are skipped; the chain is
        # still open after generation 3 (for/else); <= 30 followed
        (*network(40, 0.05, seed=1, index=[0, 7]), torch.tensor([15.0])),
        # 2 people (min), only a 10-minute contact -> nobody exposed, the
        # chain closes in generation 1 (break)
        (torch.tensor([[0.0, 0.17], [0.17, 0.0]]), torch.tensor([1.0, 0.0]), torch.tensor([21.0])),
        # 96 people (max), dense, 30-day window: the outbreak reaches almost
        # everybody in 4 generations, then closes (break); > 30 followed ->
        # lowest-risk ones dropped (while)
        (*network(96, 0.08, seed=2, index=[3]), torch.tensor([30.0])),
        # 10 people, 4-day window -> zero generations, loop body never runs
        (*network(10, 0.3, seed=3, index=[1]), torch.tensor([4.0])),
    ]
