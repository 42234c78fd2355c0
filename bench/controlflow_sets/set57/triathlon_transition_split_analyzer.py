"""Split a triathlon watch recording into swim / T1 / bike / T2 / run.

The watch logs speed, cadence and heart rate every 15 seconds.  Each sample
gets a discipline label from simple speed / cadence rules, consecutive
samples are grouped into segments (ignoring sub-30-second flickers, e.g. a
stop at an aid station), and the two transition times are reported together
with a per-segment table.  A small model rates the effort of each segment.
"""
import torch
import torch.nn as nn

SWIM, TRANSITION, BIKE, RUN = 0, 1, 2, 3


class SplitAnalyzer(nn.Module):
    def __init__(self, sample_s=15.0, min_samples=8, min_segment_samples=2):
        super().__init__()
        self.sample_s = sample_s
        self.min_samples = min_samples
        self.min_segment_samples = min_segment_samples
        self.effort_net = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1), nn.Sigmoid())
        self.scale = torch.tensor([10.0, 200.0, 200.0])

    def label_samples(self, speed, cadence):
        label = torch.full(speed.shape, TRANSITION, dtype=torch.long)
        label[(speed < 2.0) & (cadence < 60.0)] = SWIM
        label[speed > 6.5] = BIKE
        label[(cadence >= 160.0) & (speed > 2.0) & (speed <= 6.5)] = RUN
        return label

    def forward(self, log):
        # log: (n_samples, 3) [speed m/s, cadence per min, heart rate bpm]
        n = log.shape[0]
        transitions = torch.zeros(2)
        if n < self.min_samples:
            return torch.zeros(0, 4), transitions

        label = self.label_samples(log[:, 0], log[:, 1])
        changes = (label[1:] != label[:-1]).nonzero().flatten() + 1
        starts = torch.cat([torch.zeros(1, dtype=torch.long), changes])
        ends = torch.cat([changes, torch.tensor([n])])

        seen_bike = False
        rows = []
        for k in range(starts.shape[0]):
            s, e = starts[k], ends[k]
            if e - s < self.min_segment_samples:
                continue
            seg = log[s:e]
            duration = (e - s).float() * self.sample_s
            lab = label[s]
            if lab == BIKE:
                seen_bike = True
            elif lab == TRANSITION:
                if seen_bike:
                    transitions[1] += duration
                else:
                    transitions[0] += duration
            effort = self.effort_net(seg.mean(dim=0) / self.scale).squeeze(-1)
            rows.append(torch.stack([lab.float(), s.float() * self.sample_s, duration, effort]))
        return torch.stack(rows), transitions


def model():
    torch.manual_seed(5707)
    return SplitAnalyzer().eval()


N_SAMPLES = torch.export.Dim("n_samples", min=2, max=512)

_PROFILE = {
    SWIM: (1.3, 30.0, 150.0),
    TRANSITION: (1.5, 110.0, 160.0),
    BIKE: (10.0, 88.0, 150.0),
    RUN: (3.6, 176.0, 165.0),
}


def _race(parts, seed):
    """parts: list of (discipline, n_samples)."""
    g = torch.Generator().manual_seed(seed)
    rows = []
    for d, k in parts:
        base = torch.tensor(_PROFILE[d]).repeat(k, 1)
        rows.append(base + torch.randn(k, 3, generator=g) * torch.tensor([0.1, 2.0, 3.0]))
    return torch.cat(rows)


def example_inputs():
    # sprint race: swim, T1, bike with one 15-second stop, T2, run
    return (_race([(SWIM, 50), (TRANSITION, 6), (BIKE, 60), (TRANSITION, 1), (BIKE, 60),
                   (TRANSITION, 4), (RUN, 80)], 1),)


def dynamic_shapes():
    return ({0: N_SAMPLES},)


def verify_inputs():
    return [
        # full race: T1 before the bike, T2 after, a one-sample flicker skipped via continue
        example_inputs(),
        # 2 samples: too short to analyse -> early return
        (_race([(RUN, 2)], 2),),
        # 512 samples, olympic distance without any flicker
        (_race([(SWIM, 100), (TRANSITION, 8), (BIKE, 250), (TRANSITION, 6), (RUN, 148)], 3),),
        # a plain run recording: single segment, no transitions at all
        (_race([(RUN, 40)], 4),),
    ]
