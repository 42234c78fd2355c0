"""CI/CD: schedule a build DAG in waves on a limited runner pool with learned job-duration estimates.

Kahn-style wave scheduling with cycle detection (early return inside the loop), a runner cap and a
deadline cut-off (break). Kind X. Constructs: 1, 2, 3, 4, 6, 7.
"""
import torch
import torch.nn as nn


class DurationModel(nn.Module):
    """Predicts job minutes from job features [log lines changed, cache hit, tests, is_docker]."""

    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, feats):
        minutes = 2.0 + 10.0 * torch.sigmoid(self.net(feats)).squeeze(-1)
        cached = feats[:, 1] > 0.5
        if bool(cached.all()):
            # fully warm cache: everything is roughly 3x faster
            minutes = minutes / 3.0
        return minutes


class WaveScheduler(nn.Module):
    def __init__(self, runners=3, deadline=40.0):
        super().__init__()
        self.runners = runners
        self.deadline = deadline
        self.durations = DurationModel()

    def _take_first(self, ready):
        # the runner pool is limited: only the first `runners` ready jobs start in this wave
        if ready.sum() > self.runners:
            return ready & (ready.cumsum(0) <= self.runners)
        return ready

    def forward(self, feats, deps):
        # deps[i, j] = 1 when job j needs job i to finish first
        n = deps.shape[0]
        dur = self.durations(feats)
        finish = torch.zeros(n, dtype=feats.dtype)
        done = torch.zeros(n, dtype=torch.bool)
        waves = torch.zeros((), dtype=feats.dtype)
        while not done.all():
            blocked = (deps > 0.5) & (~done)[:, None]  # edge from a job that has not run yet
            ready = (~done) & ~blocked.any(0)
            if not ready.any():
                # dependency cycle: nothing can ever start
                return torch.full_like(finish, -1.0), torch.full_like(waves, -1.0), waves
            ready = self._take_first(ready)
            start = (deps * finish[:, None]).amax(0)
            finish = torch.where(ready, start + dur, finish)
            done = done | ready
            waves = waves + 1
            if finish.max() > self.deadline:
                # pipeline is already late: stop planning, remaining jobs stay unscheduled
                break
        unscheduled = (~done).to(finish.dtype)
        finish = finish * (1 - unscheduled) - unscheduled
        return finish, finish.max(), waves


def model():
    torch.manual_seed(36012)
    return WaveScheduler().eval()


def _feats(seed, n, cached=None):
    g = torch.Generator().manual_seed(seed)
    f = torch.rand(n, 4, generator=g)
    f[:, 0] = 2.0 + 4.0 * f[:, 0]
    if cached is not None:
        f[:, 1] = 1.0 if cached else 0.0
    return f


def _deps(n, edges):
    d = torch.zeros(n, n)
    for a, b in edges:
        d[a, b] = 1.0
    return d


def example_inputs():
    # lint -> {build_a, build_b} -> test -> package (5 jobs, 4 waves)
    return (_feats(1, 5), _deps(5, [(0, 1), (0, 2), (1, 3), (2, 3), (3, 4)]))


def dynamic_shapes():
    jobs = torch.export.Dim("jobs", min=2, max=64)
    return ({0: jobs}, {0: jobs, 1: jobs})


def verify_inputs():
    return [
        example_inputs(),                                                   # several waves, all within deadline
        (_feats(2, 8, cached=True), _deps(8, [(0, 4), (1, 5)])),            # warm cache; 6 jobs ready at once -> runner cap
        (_feats(3, 4), _deps(4, [(0, 1), (1, 2), (2, 1)])),                 # cycle 1<->2 -> early return in 2nd wave
        (_feats(4, 7, cached=False), _deps(7, [(i, i + 1) for i in range(6)])),  # long chain -> deadline blown, break
        (_feats(5, 2), _deps(2, [(0, 1), (1, 0)])),                         # cycle from the start -> return in 1st wave
    ]
