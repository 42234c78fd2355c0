"""Kitchen display system: route restaurant tickets to cooking stations.

Kind X.  Constructs: 1, 2, 3, 5, 6, 7, 9.
Tickets are taken in promised-time order.  Each ticket's work per station
(grill, fryer, cold line; Python loop over the configured stations) is scaled
by a learned complexity multiplier and queued behind that station's backlog
(helper with an early return for stations the ticket does not use).  Late
tickets get a comp or, for VIP tables, a manager visit; drinks-only tickets
are skipped; when every station is more than 45 minutes behind the kitchen
is "in the weeds" and stops accepting tickets.
"""
import torch
import torch.nn as nn
from torch.export import Dim

TICKETS = Dim("tickets", min=2, max=40)
STATIONS = ["grill", "fryer", "cold"]


def queue_after(backlog, work):
    if work < 0.05:
        return backlog                 # station not used by this ticket
    return backlog + work


class ComplexityModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, tickets):
        return 0.9 + 0.4 * torch.sigmoid(self.mlp(tickets / 30.0)).squeeze(-1)


class TicketRouter(nn.Module):
    def __init__(self, late_min=10.0, weeds_min=45.0):
        super().__init__()
        self.complexity = ComplexityModel()
        self.late_min = late_min
        self.weeds_min = weeds_min

    def forward(self, tickets):
        # tickets: (promised in min, grill min, fryer min, cold min, VIP flag)
        n = tickets.shape[0]
        mult = self.complexity(tickets)
        backlog = [torch.zeros(()) for _ in STATIONS]
        ready = torch.full((n,), -1.0)
        action = torch.zeros(n)            # 1 = comp dessert, 2 = manager visit

        for i in torch.argsort(tickets[:, 0]).tolist():
            work = tickets[i, 1:1 + len(STATIONS)] * mult[i]
            if (work < 0.05).all():
                continue                                   # drinks only
            for s in range(len(STATIONS)):
                backlog[s] = queue_after(backlog[s], work[s])
            done = torch.stack([backlog[s] for s in range(len(STATIONS)) if work[s] >= 0.05]).max()
            late = done - tickets[i, 0]
            if late > self.late_min and not tickets[i, 4] > 0.5:
                action[i] = 1.0
            elif late > self.late_min:
                action[i] = 2.0
            ready[i] = done
            if min(backlog) > self.weeds_min:
                break
        return ready, action


def model():
    torch.manual_seed(63016)
    return TicketRouter().eval()


def _tickets(rows):
    return (torch.tensor(rows, dtype=torch.float32),)


def example_inputs():
    return _tickets([[15.0, 8, 4, 0, 0], [18.0, 0, 0, 3, 0], [20.5, 12, 5, 2, 1], [22.0, 0, 0, 0, 0],
                     [26.0, 6, 0, 4, 0], [31.0, 0, 6, 0, 0]])


def dynamic_shapes():
    return ({0: TICKETS},)


def verify_inputs():
    return [
        example_inputs(),                                    # normal service, one drinks-only ticket (continue)
        _tickets([[10.0, 5, 0, 0, 0], [12.0, 0, 0, 2, 0]]),  # quiet: nobody late
        _tickets([[5.0, 14, 6, 3, 0], [6.0, 15, 6, 4, 1], [7.0, 12, 8, 5, 0], [8.0, 16, 7, 6, 1],
                  [9.0, 12, 9, 2, 0]]),                      # rush: late tickets get comps / manager visits
        _tickets([[5.0, 20, 19, 17, 0], [6.0, 18, 15, 17, 0], [7.0, 17, 17, 16, 0], [8.0, 10, 4, 3, 1],
                  [9.0, 5, 5, 5, 0]]),                       # every station > 45 min behind: in the weeds, break
    ]
