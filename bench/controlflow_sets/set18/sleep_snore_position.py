"""Sleep tracker (phone on the mattress): finds snore episodes in the per-second audio energy and,
for each episode, classifies the sleeping position from accelerometer features. Episode count and
lengths depend on the data."""
import torch
from torch import nn

POSITIONS = 4   # back, left, right, prone


def next_episode(energy, start, thr):
    """Scan for the next [onset, end) run above thr starting at `start`; (-1, -1) if none."""
    i = start
    T = energy.shape[0]
    while i < T and energy[i] < thr:
        i += 1
    if i >= T:
        return -1, -1
    j = i
    while j < T and energy[j] >= thr:
        j += 1
    return i, j


class SnorePosition(nn.Module):
    def __init__(self):
        super().__init__()
        self.pos = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, POSITIONS))
        self.thr = 0.5
        self.max_episodes = 3

    def forward(self, energy, accel):
        # energy: (T,), accel: (T, 3) gravity vector per second, same T
        start = 0
        probs = []
        lengths = []
        while len(probs) < self.max_episodes:
            onset, end = next_episode(energy, start, self.thr)
            if onset < 0:
                break
            g = accel[onset:end].mean(dim=0)
            p = torch.softmax(self.pos(g) + 4.0 * g.abs().repeat(2)[:POSITIONS], dim=0)
            probs.append(p)
            lengths.append(torch.tensor(end - onset))
            start = end
        if len(probs) == 0:
            return torch.zeros(0, POSITIONS), torch.zeros(0, dtype=torch.int64)
        return torch.stack(probs), torch.stack(lengths)


def model():
    torch.manual_seed(0)
    return SnorePosition().eval()


def _night(runs, T):
    e = torch.full((T,), 0.1)
    for a, b in runs:
        e[a:b] = 0.9
    acc = torch.zeros(T, 3)
    acc[:, 2] = 1.0
    acc[T // 2:, 0] = 1.0
    acc[T // 2:, 2] = 0.0
    return e, acc


def example_inputs():
    return _night([(2, 5), (9, 10)], 16)


def dynamic_shapes():
    t = torch.export.Dim("seconds", min=2, max=36000)
    return ({0: t}, {0: t})


def verify_inputs():
    return [_night([], 8),                                   # no snoring
            _night([(0, 2), (4, 6), (8, 10), (12, 14), (16, 18)], 20),  # more than max_episodes
            _night([(3, 12)], 12)]                           # episode runs to the end
