"""Cross-dock inbound door assignment for one shift.

Trucks are taken in order of arrival time minus a learned urgency credit
(perishables, carrier late penalties, pallet count).  Each truck gets the
first open door that is already free when it arrives; if every door is busy
it waits for the door that frees first.  Perishable loads that would wait
too long are diverted to the overflow reefer yard, and assignment stops when
a truck could not finish unloading before the end of the shift.
The number of staffed doors comes in as a tensor.
Returns door index per truck (-1 unassigned, -2 diverted), unload start
times, and the total waiting time.
"""
import torch
import torch.nn as nn


class DoorAssigner(nn.Module):
    def __init__(self, shift_end=480.0, max_wait=45.0):
        super().__init__()
        self.urgency = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))
        self.shift_end = shift_end
        self.max_wait = max_wait

    def forward(self, arrivals, unload, feats, doors):
        n_trucks = arrivals.shape[0]
        n_doors = int(doors.item())
        credit = 15.0 * torch.sigmoid(self.urgency(feats)).squeeze(1)
        order = torch.argsort(arrivals - credit, stable=True).tolist()

        free_at = [torch.zeros(()) for _ in range(n_doors)]
        door_of = torch.full((n_trucks,), -1, dtype=torch.long)
        start = torch.full((n_trucks,), -1.0)
        total_wait = torch.zeros(())
        for i in order:
            arrival = arrivals[i]
            for d in range(n_doors):
                if free_at[d] <= arrival:
                    chosen, begin = d, arrival
                    break
            else:
                chosen = int(torch.stack(free_at).argmin())
                begin = free_at[chosen]

            wait = begin - arrival
            if wait > self.max_wait and feats[i, 0] > 0.5:
                door_of[i] = -2                   # perishable: divert to overflow yard
                continue
            if begin + unload[i] > self.shift_end:
                break                             # shift over, rest roll to next shift
            door_of[i] = chosen
            start[i] = begin
            free_at[chosen] = begin + unload[i]
            total_wait = total_wait + wait
        return door_of, start, total_wait


def model():
    torch.manual_seed(518)
    return DoorAssigner().eval()


def _shift(k, n_doors, seed, span=420.0, unload_min=30.0):
    g = torch.Generator().manual_seed(seed)
    arrivals = torch.sort(span * torch.rand(k, generator=g)).values
    unload = unload_min + 30.0 * torch.rand(k, generator=g)
    feats = torch.stack([(torch.rand(k, generator=g) > 0.6).float(),
                         torch.rand(k, generator=g),
                         torch.randint(10, 27, (k,), generator=g).float() / 26.0], dim=1)
    return arrivals, unload, feats, torch.tensor([n_doors])


def example_inputs():
    return _shift(12, 3, seed=1)


def dynamic_shapes():
    k = torch.export.Dim("trucks", min=2, max=40)
    return ({0: k}, {0: k}, {0: k}, None)


def verify_inputs():
    return [
        example_inputs(),                         # three doors, light traffic: short waits only
        _shift(2, 1, seed=2, span=60.0),          # one door, second truck waits (for/else)
        _shift(40, 2, seed=3),                    # congested: waits, perishables diverted, shift ends (break)
        _shift(20, 4, seed=4, span=100.0),        # morning rush on four doors
    ]
