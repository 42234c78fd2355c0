"""Kanban production-line simulator with WIP limits (digital twin of a
four-station assembly line).

Each tick, orders arrive at station 0; every station (its own module with a
capacity rule) processes jobs from its queue unless the downstream queue has
hit its WIP limit (blocked). If total WIP exceeds the andon limit the line is
stopped. After the arrival horizon the line drains until empty (bounded).
All quantities are whole job counts stored as floats.
Constructs: 1, 2, 3, 4, 5, 6, 7, 9
"""
import torch
import torch.nn as nn


class Station(nn.Module):
    def __init__(self, capacity, wip_limit, setup_every=0):
        super().__init__()
        self.capacity = capacity
        self.wip_limit = wip_limit
        self.setup_every = setup_every     # static: changeover every N ticks

    def forward(self, queue, downstream_queue, tick, speed):
        cap = torch.floor(self.capacity * speed)
        if self.setup_every and tick % self.setup_every == 0:
            cap = cap * 0.0                # changeover tick: no output
        if downstream_queue >= self.wip_limit:
            return torch.zeros(())         # blocked by kanban
        return torch.minimum(queue, cap)


class KanbanLine(nn.Module):
    def __init__(self, andon_wip=40.0, max_drain=30):
        super().__init__()
        self.stations = nn.ModuleList([
            Station(3.0, 6.0), Station(2.0, 5.0, setup_every=5), Station(3.0, 6.0), Station(4.0, 1e9),
        ])
        self.andon_wip = andon_wip
        self.max_drain = max_drain

    def step(self, queues, tick, speeds):
        queues = queues.clone()
        done = torch.zeros(())
        # process from the last station backwards so a job moves one station per tick
        for s in range(len(self.stations) - 1, -1, -1):
            station = self.stations[s]
            downstream = queues[s + 1] if s + 1 < len(self.stations) else torch.zeros(())
            moved = station(queues[s], downstream, tick, speeds[s])
            if moved <= 0:
                continue
            queues[s] = queues[s] - moved
            if s + 1 < len(self.stations):
                queues[s + 1] = queues[s + 1] + moved
            else:
                done = done + moved
        return queues, done

    def forward(self, arrivals, speeds):
        queues = torch.zeros(len(self.stations))
        output = []
        stopped = torch.tensor(0.0)
        for t in range(arrivals.shape[0]):
            queues[0] = queues[0] + arrivals[t]
            queues, done = self.step(queues, t, speeds)
            output.append(done)
            if queues.sum() > self.andon_wip:
                stopped = torch.tensor(1.0)
                break

        drain_ticks = torch.tensor(0.0)
        t = arrivals.shape[0]
        while queues.sum() > 0 and drain_ticks < self.max_drain and not stopped:
            queues, done = self.step(queues, t, speeds)
            output.append(done)
            drain_ticks = drain_ticks + 1
            t += 1
        return torch.stack(output), queues, stopped, drain_ticks


def model():
    return KanbanLine().eval()


def example_inputs():
    return (torch.tensor([2.0, 3.0, 1.0, 0.0, 2.0, 4.0, 1.0, 0.0, 0.0, 2.0]), torch.tensor([1.0, 1.0, 1.0, 1.0]))


def dynamic_shapes():
    return ({0: torch.export.Dim("ticks", min=2, max=200)}, None)


def verify_inputs():
    return [
        example_inputs(),                                                  # normal flow, changeover ticks, drain several ticks
        (torch.tensor([0.0, 0.0, 0.0]), torch.tensor([1.0, 1.0, 1.0, 1.0])),          # no orders: stations idle (continue), drain 0 times
        (torch.full((30,), 8.0), torch.tensor([1.0, 1.0, 1.0, 1.0])),                 # overload: kanban blocks, andon stop (break), no drain
        (torch.tensor([5.0, 5.0, 5.0, 5.0]), torch.tensor([1.0, 0.5, 1.0, 1.0])),     # slow station 1: blocking upstream, long drain (23 ticks)
        (torch.tensor([3.0, 3.0]), torch.tensor([1.0, 0.3, 1.0, 1.0])),               # station 1 starved of capacity: jobs stuck, drain stops on its cap
    ]
