"""Tea estate plucking-round planner.

Each field section reports shoot density (shoots/m2), average leaves per shoot,
days since the last plucking round and last week's rainfall (mm).  The round
interval follows the season (monsoon flush vs dry spell), overdue sections are
pushed up the list while enough pluckers are on the roll, and a small network
forecasts green-leaf yield (kg/ha).  Large estates are scored in blocks of 64
sections, the way the estate's reporting sheet is laid out.
"""
import torch
import torch.nn as nn


class TeaPluckingScheduler(nn.Module):
    def __init__(self):
        super().__init__()
        self.yield_net = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 1))
        self.block = 64
        self.labour_shortage = False
        self.register_buffer("scale", torch.tensor([400.0, 4.0, 14.0, 100.0]))

    def round_interval(self, rainfall):
        wet = rainfall.mean()
        if wet > 50.0:
            return torch.tensor(5.0)     # monsoon flush: shoots grow fast
        elif wet < 10.0:
            return torch.tensor(10.0)    # dry spell
        return torch.tensor(7.0)

    def score_block(self, block, interval):
        density, leaves, days = block[:, 0], block[:, 1], block[:, 2]
        # "two leaves and a bud": best when shoots carry 2.5-3.5 leaves
        readiness = 1.0 - (leaves - 3.0).abs() / 3.0
        urgency = days / interval
        kg_ha = torch.relu(self.yield_net(block / self.scale).squeeze(-1) * 20.0 + density * 2.0)
        return readiness * urgency, kg_ha

    def forward(self, sections):
        # sections: (S, 4)
        interval = self.round_interval(sections[:, 3])
        if sections.shape[0] > self.block:
            priorities, yields = [], []
            for start in range(0, sections.shape[0], self.block):
                p, y = self.score_block(sections[start:start + self.block], interval)
                priorities.append(p)
                yields.append(y)
            priority = torch.cat(priorities)
            kg_ha = torch.cat(yields)
        else:
            priority, kg_ha = self.score_block(sections, interval)

        overdue = sections[:, 2] > interval + 2.0
        if overdue.any() and not self.labour_shortage:
            # overdue sections go to the front of tomorrow's list
            priority = priority + 10.0 * overdue.float()
        return priority, interval.reshape(1), kg_ha


def model():
    torch.manual_seed(5609)
    return TeaPluckingScheduler().eval()


def _estate(n, rain, max_days, seed):
    g = torch.Generator().manual_seed(seed)
    u = torch.rand(n, 4, generator=g)
    return torch.stack([250.0 + 150.0 * u[:, 0], 1.5 + 3.0 * u[:, 1],
                        1.0 + (max_days - 1.0) * u[:, 2], rain * (0.8 + 0.4 * u[:, 3])], dim=1)


def example_inputs():
    return (_estate(40, 30.0, 8.0, 1),)


def dynamic_shapes():
    s = torch.export.Dim("sections", min=2, max=300)
    return ({0: s},)


def verify_inputs():
    return [
        # 40 sections, normal rain (7-day round), nobody past 9 days -> no overdue boost
        example_inputs(),
        # min 2 sections in the monsoon (5-day round), up to 12 days since plucking -> overdue boost
        (_estate(2, 80.0, 12.0, 2),),
        # max 300 sections (5 blocks of 64), dry spell (10-day round), some overdue
        (_estate(300, 5.0, 15.0, 3),),
        # 65 sections -> just over one block, normal rain, some overdue
        (_estate(65, 30.0, 14.0, 4),),
    ]
