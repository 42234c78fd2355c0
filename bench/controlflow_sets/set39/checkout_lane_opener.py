"""Supermarket checkout staffing over a day: per 5-minute slot, customers arrive, a learned
model predicts the service rate of a lane from the mean basket size, lanes are opened
one by one while the expected wait is above target (up to the number of registers), closed
when queues are short, and the queue is served.

Kind T. Constructs: 1 (if on the tensor queue state), 2 (lane count reassigned in one
branch, value from before the if), 3 (and in the while and in the closing test), 4 (while
on a tensor expected-wait condition with loop-carried lane count), 5 (for over the dynamic
number of slots, append + stack), 9 (static register limits).
"""
import torch
import torch.nn as nn


class CheckoutStaffing(nn.Module):
    def __init__(self, min_lanes=1, max_lanes=8, target_wait=2.0, slot_minutes=5.0):
        super().__init__()
        self.min_lanes = min_lanes
        self.max_lanes = max_lanes
        self.target_wait = target_wait
        self.slot_minutes = slot_minutes
        self.service = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, arrivals, basket):
        # arrivals: (S,) customers arriving per slot; basket: (S,) mean items per basket
        lanes = torch.tensor(float(self.min_lanes))
        queue = torch.zeros(())
        lane_hist, queue_hist, opened = [], [], []
        for t in range(arrivals.shape[0]):
            queue = queue + arrivals[t]
            feats = torch.stack([basket[t] / 20.0, torch.log1p(basket[t])])
            # customers per lane per minute: ~0.6..1.2, slower for big baskets
            rate = 0.9 + 0.3 * torch.tanh(self.service(feats)[0]) - 0.01 * basket[t].clamp(max=20.0)
            n_open = 0
            while queue / (lanes * rate) > self.target_wait * self.slot_minutes and lanes < self.max_lanes:
                lanes = lanes + 1.0
                n_open += 1
            if n_open == 0 and queue < 0.5 * lanes * rate * self.slot_minutes and lanes > self.min_lanes:
                lanes = lanes - 1.0      # idle cashier goes back to stocking shelves
            served = torch.minimum(queue, lanes * rate * self.slot_minutes)
            queue = queue - served
            lane_hist.append(lanes)
            queue_hist.append(queue)
            opened.append(torch.tensor(float(n_open)))
        return torch.stack(lane_hist), torch.stack(queue_hist), torch.stack(opened)


def model():
    torch.manual_seed(3910)
    return CheckoutStaffing().eval()


def _make_day(arrivals, basket):
    return (torch.tensor(arrivals, dtype=torch.float32), torch.tensor(basket, dtype=torch.float32))


def example_inputs():
    # a 2-hour late-afternoon stretch (24 slots): rush builds up (lanes opened one or two at a
    # time, up to the register limit) then fades (lanes closed one per slot)
    arr = [3, 4, 6, 9, 14, 20, 26, 31, 33, 30, 25, 22, 18, 14, 11, 8, 6, 5, 4, 4, 3, 2, 2, 1]
    bsk = [8, 9, 10, 12, 14, 15, 16, 15, 14, 12, 11, 10, 9, 8, 8, 7, 7, 6, 6, 6, 5, 5, 5, 5]
    return _make_day(arr, bsk)


def dynamic_shapes():
    s = torch.export.Dim("slots", min=2, max=144)
    return ({0: s}, {0: s})


def verify_inputs():
    ex = example_inputs()   # the example: path described in example_inputs()
    # sudden coach party: 150 customers in one slot -> while opens several lanes at once and
    # hits the register limit (while ends on the "lanes < max_lanes" operand)
    coach = _make_day([2, 150, 10, 0, 0, 0], [6, 25, 10, 4, 4, 4])
    # quiet: one customer per slot, a single lane is enough, never opens or closes
    quiet = _make_day([1, 1], [3, 5])
    # full opening day (144 slots = 12 h) with a noon and an evening peak
    t = torch.arange(144.0)
    arr = (4 + 20 * torch.exp(-((t - 50) / 12) ** 2) + 28 * torch.exp(-((t - 110) / 10) ** 2)).round()
    bsk = 6 + 8 * torch.exp(-((t - 110) / 20) ** 2)
    day = (arr, bsk.round())
    return [ex, coach, quiet, day]
