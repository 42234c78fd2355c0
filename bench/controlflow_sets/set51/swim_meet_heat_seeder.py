"""Swim meet heat/lane seeding for preliminaries.

Swimmers with an entry time under the qualifying standard are seeded: the
fastest swimmers go in the last heat, and within a heat the faster swimmers
get the centre lanes (4, 5, 3, 6, 2, 7, 1, 8).  A small net predicts each
swimmer's prelim time from the entry time and a taper indicator.
"""
import torch
import torch.nn as nn


class PrelimPredictor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1), nn.Tanh())

    def forward(self, entry, tapered):
        x = torch.stack([entry / 100.0, tapered], dim=1)
        return entry * (1.0 + 0.02 * self.net(x).squeeze(-1))


class HeatSeeder(nn.Module):
    def __init__(self, lanes=8):
        super().__init__()
        self.lanes = lanes
        self.lane_order = [4, 5, 3, 6, 2, 7, 1, 8][:lanes]
        self.predict = PrelimPredictor()

    def forward(self, entry_times, tapered, qualifying_time):
        n = entry_times.shape[0]
        predicted = self.predict(entry_times, tapered)
        qualified = entry_times <= qualifying_time
        n_q = int(qualified.sum().item())
        heat = torch.full((n,), -1, dtype=torch.long)
        lane = torch.full((n,), -1, dtype=torch.long)
        if n_q == 0:
            return heat, lane, predicted

        order = torch.argsort(torch.where(qualified, entry_times, torch.full_like(entry_times, 1e9)))
        n_heats = (n_q + self.lanes - 1) // self.lanes
        rows = []
        k = 0
        for h in range(n_heats - 1, -1, -1):
            for ln in self.lane_order:
                if k >= n_q:
                    break
                rows.append(torch.stack([order[k], torch.tensor(h), torch.tensor(ln)]))
                k += 1
            else:
                continue
            break  # ran out of swimmers part-way through a heat
        seeding = torch.stack(rows)
        heat[seeding[:, 0]] = seeding[:, 1]
        lane[seeding[:, 0]] = seeding[:, 2]
        return heat, lane, predicted


def model():
    torch.manual_seed(5116)
    return HeatSeeder().eval()


def _entries(n, seed):
    g = torch.Generator().manual_seed(seed)
    times = 52.0 + 8.0 * torch.rand(n, generator=g)
    tapered = (torch.rand(n, generator=g) < 0.5).float()
    return times, tapered


def example_inputs():
    t, tp = _entries(20, 1)
    return (t, tp, torch.tensor(58.0))


def dynamic_shapes():
    n = torch.export.Dim("swimmers", min=2, max=160)
    return ({0: n}, {0: n}, None)


def verify_inputs():
    t16, tp16 = _entries(16, 3)
    return [
        # example: some swimmers miss the standard; last (slowest) heat partly filled -> break
        example_inputs(),
        # min: nobody qualifies -> early return
        (torch.tensor([61.0, 62.5]), torch.tensor([0.0, 1.0]), torch.tensor(58.0)),
        # exactly 16 qualifiers -> two full heats, loops finish without break
        (t16, tp16, torch.tensor(99.0)),
        # max: 160 entries, everyone qualifies, 20 full heats
        (*_entries(160, 4), torch.tensor(99.0)),
        # 3 of 4 qualify -> one partial heat
        (torch.tensor([55.0, 59.0, 53.0, 54.0]), torch.ones(4), torch.tensor(58.0)),
    ]
