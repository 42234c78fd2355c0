"""Multi-level feedback queue CPU scheduler simulation (3 levels, priority boost, I/O
blocking) with time quanta chosen by a learned tuner from the workload mix."""
import torch
import torch.nn as nn
from torch.export import Dim

IO_WAIT = 3  # ticks a job sleeps per I/O request


class MlfqSimulator(nn.Module):
    def __init__(self, levels=3, boost_every=40, max_ticks=200):
        super().__init__()
        self.levels, self.boost_every, self.max_ticks = levels, boost_every, max_ticks
        self.tuner = nn.Linear(3, levels)

    def quanta_for(self, jobs):
        stats = torch.stack([jobs[:, 1].mean() / 10.0, jobs[:, 2].mean() / 5.0,
                             torch.tensor(jobs.shape[0] / 10.0)])
        raw = 1.0 + 3.0 * torch.sigmoid(self.tuner(stats))
        # lower levels get at least as long a slice as the level above
        return [int(raw[:k + 1].sum().item()) for k in range(self.levels)]

    def forward(self, jobs):
        # jobs (J, 3): arrival tick, total CPU ticks needed, CPU ticks between I/O (0 = never)
        n = jobs.shape[0]
        quanta = self.quanta_for(jobs)
        remaining = jobs[:, 1].clone()
        finish = torch.full((n,), -1.0)
        level, since_io, arrived = [0] * n, [0] * n, [False] * n
        queues = [[] for _ in range(self.levels)]
        blocked = {}
        t, current, used = 0, None, 0
        while (remaining > 0).any():
            if t >= self.max_ticks:
                break  # simulation horizon: unfinished jobs keep finish = -1
            for j in range(n):  # arrivals, ties in job order
                if not arrived[j] and jobs[j, 0] <= t:
                    arrived[j] = True
                    queues[0].append(j)
            for j in sorted(blocked):
                if blocked[j] <= t:
                    del blocked[j]
                    queues[level[j]].append(j)
            if t > 0 and t % self.boost_every == 0:  # anti-starvation boost
                for q in range(1, self.levels):
                    queues[0].extend(queues[q])
                    queues[q] = []
                level = [0] * n
            if current is None:
                for q in range(self.levels):
                    if queues[q]:
                        current, used = queues[q].pop(0), 0
                        break
                else:
                    t += 1  # CPU idle this tick
                    continue
            remaining[current] -= 1
            used, t = used + 1, t + 1
            since_io[current] += 1
            if remaining[current] <= 0:
                finish[current] = float(t)
                current = None
            elif jobs[current, 2] > 0 and since_io[current] >= jobs[current, 2]:
                blocked[current], since_io[current] = t + IO_WAIT, 0
                current = None  # gave up the CPU early: keeps its level
            elif used >= quanta[level[current]]:
                level[current] = min(level[current] + 1, self.levels - 1)
                queues[level[current]].append(current)
                current = None
        done = finish >= 0
        wait = torch.where(done, finish - jobs[:, 0] - jobs[:, 1], torch.full((n,), -1.0))
        return finish, wait, torch.tensor(level)


def model():
    torch.manual_seed(6015)
    return MlfqSimulator().eval()


def _jobs(rows):
    return (torch.tensor(rows, dtype=torch.float32),)


def example_inputs():
    return _jobs([[0, 12, 0], [1, 4, 2], [2, 20, 0], [6, 3, 0], [30, 5, 1]])


def dynamic_shapes():
    return ({0: Dim("jobs", min=2, max=12)},)


def verify_inputs():
    mixed = [[3 * k, 4 + (7 * k) % 13, (k % 3)] for k in range(12)]
    return [
        _jobs([[0, 12, 0], [1, 4, 2], [2, 20, 0], [6, 3, 0], [30, 5, 1]]),  # example: I/O, boost
        _jobs([[0, 2, 0], [5, 1, 0]]),        # min jobs: CPU idles before the second arrives
        _jobs(mixed),                         # max jobs: demotions, I/O, boosts, all finish
        _jobs([[0, 150, 0], [2, 120, 4]]),    # hog jobs: horizon reached before completion
    ]
