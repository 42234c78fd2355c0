"""Heart sound (PCG) segmentation: a small conv net scores the four cardiac states
(S1, systole, S2, diastole) per envelope frame; a duration-constrained state machine
walks the frames and counts S1 onsets for a heart-rate estimate."""

import torch
from torch import nn

FS = 50.0  # envelope frames per second


def heart_rate(beats: torch.Tensor, first: torch.Tensor, last: torch.Tensor) -> torch.Tensor:
    if beats < 2:
        return torch.zeros(())  # not enough beats for an interval
    interval = (last - first).float() / (beats - 1).float() / FS
    return 60.0 / interval


class PCGSegmenter(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(1, 8, 5, padding=2), nn.ReLU(), nn.Conv1d(8, 4, 5, padding=2))
        # minimum number of frames each state must last (S1, systole, S2, diastole)
        self.register_buffer("min_dur", torch.tensor([2, 3, 2, 4]))

    def forward(self, env: torch.Tensor):
        # env: (1, T) homomorphic envelope in [0, 1]
        e = env[0]
        learned = self.conv(env.unsqueeze(0))[0]
        template = torch.stack([e, 0.5 - e, e, 0.5 - e], dim=0)
        logit = 0.1 * learned + 4.0 * template  # (4, T)

        state = torch.tensor(3)  # start in diastole
        dur = torch.tensor(0)
        beats = torch.tensor(0)
        first = torch.tensor(0)
        last = torch.tensor(0)
        states = []
        for t in range(env.shape[1]):
            nxt = (state + 1) % 4
            if dur >= self.min_dur[state] and logit[nxt, t] > logit[state, t]:
                state = nxt
                dur = torch.tensor(0)
                if state == 0:
                    if beats == 0:
                        first = torch.tensor(t)
                    last = torch.tensor(t)
                    beats = beats + 1
            else:
                dur = dur + 1
            states.append(state)
        return torch.stack(states), heart_rate(beats, first, last)


def model() -> nn.Module:
    torch.manual_seed(0)
    return PCGSegmenter().eval()


def _pcg(T, period, seed, amp=1.0):
    g = torch.Generator().manual_seed(seed)
    env = 0.05 * torch.rand(1, T, generator=g)
    if period > 0:
        for start in range(3, T, period):
            env[0, start:start + 3] += amp                      # S1
            env[0, start + period // 3: start + period // 3 + 3] += 0.8 * amp  # S2
    return (env,)


def example_inputs() -> tuple:
    return _pcg(120, 40, 0)


def dynamic_shapes():
    return ({1: torch.export.Dim("frames", min=8, max=512)},)


def verify_inputs() -> list:
    return [
        _pcg(512, 45, 1),   # long recording, many beats
        _pcg(20, 40, 2),    # one S1 only -> no heart rate
        _pcg(8, 0, 3),      # silence (stethoscope not on the chest)
        _pcg(300, 30, 4, amp=0.7),  # tachycardia, quieter
    ]
