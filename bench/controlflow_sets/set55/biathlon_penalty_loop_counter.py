"""Biathlon race scorer: penalty loops, spare rounds and the lapped-out rule.

shots[s, k] is the distance (mm) of the k-th shot at shooting stage s from the
target centre; stages alternate prone (hit radius 22.5 mm) and standing
(57.5 mm). In relay format each stage allows spare rounds (count given by the
race format input) after the five magazine shots. Every target left standing
costs one 150 m penalty loop, whose time comes from a learned fatigue model.
Skiers whose running time exceeds the cut-off are pulled from the course.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

PRONE_RADIUS_MM = 22.5
STANDING_RADIUS_MM = 57.5


class BiathlonScorer(nn.Module):
    def __init__(self, shot_time_s=3.5, cutoff_s=1500.0):
        super().__init__()
        self.shot_time_s = shot_time_s
        self.cutoff_s = cutoff_s
        self.loop_time = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))

    def penalty_loop_seconds(self, leg_time, stage, n_stages):
        feats = torch.stack([leg_time / 400.0, torch.tensor(stage / n_stages), torch.tensor(1.0)])
        return 24.0 * (1.0 + 0.1 * torch.tanh(self.loop_time(feats))).squeeze(0)

    def forward(self, shots, leg_times, race_format):
        n_stages = shots.shape[0]
        spares = int(race_format[0].item())
        elapsed = torch.zeros(())
        penalties = []
        hit_times = []
        pulled = False
        for stage in range(n_stages):
            elapsed = elapsed + leg_times[stage]
            radius = PRONE_RADIUS_MM if stage % 2 == 0 else STANDING_RADIUS_MM
            targets_left = 5
            for k in range(5 + spares):
                if targets_left == 0:
                    break  # all five down, spares stay in the tray
                elapsed = elapsed + self.shot_time_s
                if shots[stage, k] >= radius:
                    continue
                targets_left -= 1
                hit_times.append(elapsed)
                if elapsed > self.cutoff_s:
                    pulled = True
                    break
            penalties.append(torch.tensor(targets_left))
            if pulled:
                break  # lapped out: race over
            elapsed = elapsed + targets_left * self.penalty_loop_seconds(leg_times[stage], stage, n_stages)

        # stages never shot (pulled) are marked -1
        per_stage = F.pad(torch.stack(penalties), (0, n_stages - len(penalties)), value=-1)
        last_hit = hit_times[-1] if hit_times else torch.zeros(())
        return per_stage, elapsed, last_hit, torch.tensor(int(pulled))


def model():
    torch.manual_seed(5517)
    return BiathlonScorer().eval()


def _race(stages, accuracy, leg_s, spares, seed):
    g = torch.Generator().manual_seed(seed)
    shots = torch.rand(stages, 8, generator=g) * 60.0 / accuracy
    legs = leg_s + 20.0 * torch.rand(stages, generator=g)
    return shots, legs, torch.tensor([spares])


def example_inputs():
    return _race(4, 1.5, 300.0, 0, 1)


def dynamic_shapes():
    stages = torch.export.Dim("stages", min=2, max=8)
    return ({0: stages}, {0: stages}, None)


def verify_inputs():
    return [
        example_inputs(),                      # individual race, no spares: some misses -> penalty loops
        _race(2, 4.0, 250.0, 3, 2),            # stages=min, relay spares, accurate: early "all down" break
        _race(8, 1.2, 300.0, 3, 3),            # stages=max, relay: spares used, pulled at the cut-off mid-stage
        _race(3, 0.5, 200.0, 0, 4),            # very poor shooting, many loops, finishes
        _race(3, 0.02, 200.0, 0, 5),           # nothing hit at all: 15 loops, no last-hit time
    ]
