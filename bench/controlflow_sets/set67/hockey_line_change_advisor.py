"""Ice-hockey bench assistant: which skaters on the ice should change now.

Wearable heart rate and skating speed over the current shift, the shift
length and the game state (score diff, period, seconds left in the period,
strength: +1 power play, 0 even, -1 penalty kill) feed a fatigue estimate
(hand-tuned load model + small learned correction). Shift-length limits are
shorter on the penalty kill, nobody changes in the last 5 s of a period, and
if three or more skaters are gassed the whole unit changes on the fly.

Constructs: 1, 2, 3, 5, 7, 8
"""
import torch
import torch.nn as nn
from torch.export import Dim


class LineChangeAdvisor(nn.Module):
    def __init__(self):
        super().__init__()
        self.correction = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
        self.max_shift = 50.0
        self.pk_max_shift = 35.0

    def recent_load(self, hr, speed):
        if hr.shape[1] >= 10:
            hr_recent = hr[:, -10:].mean(1)
            speed_recent = speed[:, -10:].mean(1)
        else:
            # player just jumped on: use the whole (short) window
            hr_recent = hr.mean(1)
            speed_recent = speed.mean(1)
        speed_drop = 1.0 - speed_recent / speed[:, :3].mean(1).clamp(min=0.1)
        return hr_recent, speed_drop

    def forward(self, shift_s, hr, speed, game):
        n = shift_s.shape[0]
        hr_recent, speed_drop = self.recent_load(hr, speed)
        feats = torch.stack([shift_s / 60.0, hr_recent / 200.0, speed_drop, game[3].expand(n)], dim=1)
        fatigue = 0.6 * shift_s / self.max_shift + 0.4 * (hr_recent - 120.0) / 60.0 \
            + 0.05 * torch.tanh(self.correction(feats)).squeeze(1)

        if game[2] < 5.0:
            # end of period: hold the line, faceoff coming
            return torch.zeros(n), fatigue

        limit = self.pk_max_shift if game[3] < 0 else self.max_shift
        change = []
        for p in range(n):
            if shift_s[p] > limit or fatigue[p] > 0.9:
                change.append(torch.tensor(1.0))
            elif speed_drop[p] > 0.2 and hr_recent[p] > 170.0:
                change.append(torch.tensor(1.0))
            else:
                change.append(torch.tensor(0.0))
        change = torch.stack(change)
        if change.sum() >= 3:
            change = torch.ones(n)  # change the whole unit
        return change, fatigue


def model():
    torch.manual_seed(67)
    return LineChangeAdvisor().eval()


def _shift(players, T, game, seed):
    """players: (shift_s, hr_start, hr_end, speed_start, speed_end)"""
    gen = torch.Generator().manual_seed(seed)
    ramp = torch.linspace(0, 1, T)
    hr = torch.stack([a + (b - a) * ramp for _, a, b, _, _ in players]) + 1.0 * torch.randn(len(players), T, generator=gen)
    sp = torch.stack([a + (b - a) * ramp for _, _, _, a, b in players]) + 0.05 * torch.randn(len(players), T, generator=gen)
    shift = torch.tensor([p[0] for p in players], dtype=torch.float32)
    return shift, hr, sp, torch.tensor(game, dtype=torch.float32)


def example_inputs():
    # even strength, 5 skaters, 20 samples: one over the shift limit, one slowing + HR > 170, one fatigued only,
    # one slowing with HR < 170 (stays): three changes -> whole unit
    return _shift([(58.0, 140, 165, 7.0, 6.5), (30.0, 150, 182, 7.5, 5.2), (45.0, 160, 192, 7.0, 6.8),
                   (25.0, 130, 150, 7.2, 7.0), (33.0, 140, 158, 7.0, 4.8)], 20, [0, 2, 300, 0], 1)


def dynamic_shapes():
    P, T = Dim("skaters", min=3, max=6), Dim("samples", min=4, max=60)
    return ({0: P}, {0: P, 1: T}, {0: P, 1: T}, None)


def verify_inputs():
    return [
        example_inputs(),  # long window; or-first, or-second, and-true, and-false (drop but HR ok), plain stay; >= 3 -> all
        _shift([(40.0, 140, 158, 7.0, 6.9), (20.0, 130, 150, 7.3, 7.1), (22.0, 135, 152, 7.1, 5.0)], 6,
               [-1, 1, 500, -1], 2),  # penalty kill (limit 35 s), short window (< 10 samples); 1 change
        _shift([(55.0, 150, 170, 7.0, 6.5), (52.0, 150, 172, 7.1, 6.6), (48.0, 160, 195, 7.0, 6.4),
                (20.0, 120, 140, 7.4, 7.3), (18.0, 125, 138, 7.2, 7.2), (15.0, 120, 135, 7.0, 7.1)], 12,
               [1, 3, 800, 1], 3),  # power play, 3 tired skaters: whole unit changes
        _shift([(70.0, 160, 190, 7.0, 5.0), (60.0, 160, 185, 7.0, 6.0), (65.0, 155, 188, 7.0, 5.5),
                (30.0, 140, 150, 7.0, 7.0)], 8, [0, 3, 3.5, 0], 4),  # 3.5 s left: early return, no change
    ]
