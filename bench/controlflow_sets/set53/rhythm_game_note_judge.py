"""Note judgement for a rhythm game (keyboard / controller charts).

Given the chart's note times and the player's hit times (negative = no hit),
each note is judged PERFECT / GREAT / GOOD / MISS after auto-calibrating the
player's audio latency from the first notes.  The life gauge drains on misses;
when it empties the song is failed and the remaining notes count as misses.
"""
import torch
import torch.nn as nn

PERFECT, GREAT, GOOD, MISS = 0, 1, 2, 3


class LatencyCalibrator(nn.Module):
    """Estimates the systematic input latency from the first 8 timing errors."""

    def __init__(self, n_first=8):
        super().__init__()
        self.n_first = n_first
        self.net = nn.Sequential(nn.Linear(n_first, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, first_errors):
        # median is the robust guess; the net only nudges it by <= 5 ms
        nudge = 5.0 * torch.tanh(self.net(first_errors.unsqueeze(0) / 50.0)).squeeze()
        return first_errors.median() + nudge


class NoteJudge(nn.Module):
    def __init__(self):
        super().__init__()
        self.calibrator = LatencyCalibrator()
        self.windows_ms = (25.0, 60.0, 110.0)
        self.points = (300.0, 200.0, 100.0)
        self.life_loss = 0.12
        self.life_gain = 0.02

    def _judge(self, err):
        if err <= self.windows_ms[0]:
            return PERFECT
        elif err <= self.windows_ms[1]:
            return GREAT
        elif err <= self.windows_ms[2]:
            return GOOD
        return MISS

    def _combo_multiplier(self, combo):
        return 1.0 + min(combo // 10, 4) * 0.1

    def forward(self, note_times, hit_times):
        n = note_times.shape[0]
        k = self.calibrator.n_first
        if n >= k:
            first = hit_times[:k] - note_times[:k]
            first = torch.where(hit_times[:k] < 0, torch.zeros_like(first), first)
            latency = self.calibrator(first)
        else:
            latency = torch.zeros(())

        judgements = []
        score = torch.zeros(())
        combo, best_combo, life = 0, 0, 1.0
        for i in range(n):
            if hit_times[i] < 0:
                judgements.append(MISS)
                combo = 0
                life -= self.life_loss
                if life <= 0.0:
                    break
                continue
            err = (hit_times[i] - note_times[i] - latency).abs()
            j = self._judge(err)
            judgements.append(j)
            if j == MISS:
                combo = 0
                life -= self.life_loss
            else:
                combo += 1
                best_combo = max(best_combo, combo)
                life = min(1.0, life + self.life_gain)
                score = score + self.points[j] * self._combo_multiplier(combo)
            if life <= 0.0:
                break
        failed = len(judgements) < n
        judgements = judgements + [MISS] * (n - len(judgements))
        return (torch.tensor(judgements, dtype=torch.long), score,
                torch.tensor([best_combo, int(failed)], dtype=torch.long))


def model():
    torch.manual_seed(5305)
    return NoteJudge().eval()


def example_inputs():
    return verify_inputs()[0]


def dynamic_shapes():
    notes = torch.export.Dim("notes", min=2, max=256)
    return ({0: notes}, {0: notes})


def verify_inputs():
    def chart(n, seed, latency, spread, miss_every=0, miss_from=None):
        g = torch.Generator().manual_seed(seed)
        notes = torch.cumsum(150.0 + 300.0 * torch.rand(n, generator=g), 0)
        hits = notes + latency + spread * torch.randn(n, generator=g)
        if miss_every:
            hits[::miss_every] = -1.0
        if miss_from is not None:
            hits[miss_from:] = notes[miss_from:] + 400.0  # way off: judged MISS
        return notes, hits

    return [
        # example: 64 notes, 30 ms latency calibrated away, errors spread over
        # all four windows, some unplayed notes (continue); song cleared
        chart(64, seed=1, latency=30.0, spread=45.0, miss_every=13),
        # 2 notes (min) -> no calibration (n < 8); tight play, all PERFECT
        chart(2, seed=2, latency=0.0, spread=3.0),
        # 256 notes (max); player stops hitting after note 40 -> judged
        # misses drain life -> fail via the post-judge break
        chart(256, seed=3, latency=10.0, spread=8.0, miss_from=40),
        # 30 notes, none played (controller unplugged) -> life empties on
        # an unplayed note -> break inside the no-hit branch
        chart(30, seed=4, latency=0.0, spread=5.0, miss_every=1),
    ]
