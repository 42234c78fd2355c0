"""SM-2 style flashcard scheduler.

Replays a card's review history (self-graded recall quality 0-5 and response time) and
produces the interval (in days) scheduled after every review plus the final ease factor.
Slow answers are downgraded by one quality point; a small learned prior sets the card's
starting ease from its average grade and response time.
"""
import torch
from torch import nn


class SpacedRepetitionScheduler(nn.Module):
    def __init__(self, slow_seconds=12.0, min_ease=1.3):
        super().__init__()
        self.slow_seconds = slow_seconds
        self.min_ease = min_ease
        self.difficulty = nn.Linear(2, 1)
        self.fuzz = False

    def forward(self, grades, seconds):
        # grades: [R] int64 in 0..5, seconds: [R] float response times
        stats = torch.stack([grades.float().mean() / 5.0, seconds.mean() / 30.0])
        ease = 2.5 + 0.2 * torch.tanh(self.difficulty(stats)[0])
        interval = torch.zeros(())
        reps = 0
        intervals = []
        for r in range(grades.shape[0]):
            q = grades[r].float()
            if seconds[r] > self.slow_seconds:
                q = q - 1.0
            if q >= 3:
                if reps == 0:
                    interval = torch.ones(())
                elif reps == 1:
                    interval = torch.full((), 6.0)
                else:
                    interval = interval * ease
                reps += 1
            else:
                reps = 0
                interval = torch.ones(())
            ease = ease + (0.1 - (5.0 - q) * (0.08 + (5.0 - q) * 0.02))
            ease = ease if ease > self.min_ease else torch.full((), self.min_ease)
            if self.fuzz:
                interval = interval * 1.05
            intervals.append(interval)
        return torch.stack(intervals), ease


def model():
    torch.manual_seed(0)
    return SpacedRepetitionScheduler().eval()


def _make(grades, seed, slow=()):
    g = torch.Generator().manual_seed(seed)
    n = len(grades)
    secs = 3.0 + 5.0 * torch.rand(n, generator=g)
    for i in slow:
        secs[i] = 20.0 + 5.0 * torch.rand((), generator=g)
    return torch.tensor(grades, dtype=torch.int64), secs


def example_inputs():
    return _make([4, 5, 3, 4, 2, 4, 5, 5], 0, slow=(2,))


def dynamic_shapes():
    reviews = torch.export.Dim("reviews", min=2, max=64)
    return ({0: reviews}, {0: reviews})


def verify_inputs():
    return [
        _make([5, 5, 4, 5, 5], 1),                 # smooth learning, interval grows
        _make([4, 2, 4, 4, 4, 1, 3], 2, slow=(4,)),  # lapses reset the repetition count
        _make([1, 0, 2, 1, 0, 3], 3),               # ease collapses to the floor
        _make([5, 3], 4, slow=(0, 1)),              # slow answers downgraded
        example_inputs(),
    ]
