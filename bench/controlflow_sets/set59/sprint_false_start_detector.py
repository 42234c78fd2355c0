"""Sprint start: false-start detection from starting-block force sensors.

Each lane's block force trace is smoothed, a baseline is taken while the
athlete is settled in the "set" position, and the reaction is the first
sample where force leaves the baseline band.  Reaction under 100 ms after
the gun is a false start (disqualification under the one-and-done rule);
a very slow reaction is flagged for the starter; lanes where no athlete
loads the blocks or no reaction is found are reported as no-reaction.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class FalseStartDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.fs_hz = 1000.0
        self.settle_samples = 20
        self.k_sigma = 6.0
        self.min_reaction_s = 0.100
        self.review_reaction_s = 0.300
        self.min_block_force_n = 50.0
        self.max_raw_samples = 256
        self.one_and_done = True
        # anti-alias / debounce filter, normalised to unit DC gain
        self.smooth = nn.Conv1d(1, 1, 5, padding=2, bias=False, padding_mode="replicate")
        with torch.no_grad():
            w = torch.softmax(self.smooth.weight.flatten(), 0)
            self.smooth.weight.copy_(w.view(1, 1, 5))

    def onset(self, trace):
        base = trace[: self.settle_samples]
        mu = base.mean()
        sd = torch.clamp(base.std(), min=1.0)
        moved = (trace - mu).abs() > self.k_sigma * sd
        idx = torch.nonzero(moved[self.settle_samples:]).flatten()
        if idx.numel() == 0:
            return None
        return idx[0] + self.settle_samples

    def forward(self, force, gun):
        fs = self.fs_hz
        if force.shape[1] > self.max_raw_samples:
            # long capture: decimate so the filter and threshold see 500 Hz
            force = F.avg_pool1d(force.unsqueeze(1), 2).squeeze(1)
            fs = fs / 2
            gun = torch.div(gun, 2, rounding_mode="floor")
        x = self.smooth(force.unsqueeze(1)).squeeze(1)

        rts, codes = [], []
        false_starts = 0
        for lane in range(x.shape[0]):
            t0 = self.onset(x[lane])
            if t0 is None or bool(x[lane].max() < self.min_block_force_n):
                rts.append(torch.tensor(-1.0))
                codes.append(3)  # empty lane / no reaction
                continue
            rt = (t0 - gun).float() / fs
            if rt < self.min_reaction_s:
                code = 2 if self.one_and_done else 1
                false_starts += 1
            elif rt > self.review_reaction_s:
                code = 1
            else:
                code = 0
            rts.append(rt)
            codes.append(code)
        return torch.stack(rts), torch.tensor(codes), torch.tensor(false_starts)


def model():
    torch.manual_seed(5904)
    return FalseStartDetector().eval()


def make_race(n_samples, gun, reactions_ms, fs=1000.0, seed=0):
    """reactions_ms: per lane, reaction after the gun in ms, or None (empty lane)."""
    g = torch.Generator().manual_seed(seed)
    lanes = []
    t = torch.arange(n_samples, dtype=torch.float32)
    for r in reactions_ms:
        if r is None:
            # empty lane: sensor noise plus an official brushing the block
            lane = 2.0 * torch.rand(n_samples, generator=g)
            lane[2 * n_samples // 3:] += 15.0
            lanes.append(lane)
            continue
        onset = gun + r * fs / 1000.0
        push = torch.clamp(t - onset, min=0.0) * 25.0
        lanes.append(400.0 + 3.0 * torch.randn(n_samples, generator=g) + push)
    return torch.stack(lanes), torch.tensor(gun)


def example_inputs():
    return make_race(250, 30, [150.0, 172.0, 40.0, 131.0, 166.0, 190.0, 142.0, 158.0], seed=1)


def dynamic_shapes():
    lanes = torch.export.Dim("lanes", min=2, max=9)
    samples = torch.export.Dim("samples", min=64, max=512)
    return ({0: lanes, 1: samples}, None)


def verify_inputs():
    # example: 8 lanes, lane 3 goes 40 ms after the gun -> false start; 250 samples
    ex = example_inputs()
    # 2 lanes, 64 samples (a truncated capture): lane 0 moves 30 ms after the gun
    # (false start), lane 1 shows no reaction inside the window
    short = make_race(64, 25, [30.0, 500.0], seed=2)
    # 9 lanes, 512 samples (decimated branch): empty lane 1, a slow 340 ms start,
    # an anticipation before the gun (negative reaction)
    long = make_race(512, 150, [140.0, None, 340.0, -30.0, 160.0, 151.0, 133.0, 149.0, 171.0],
                     seed=3)
    return [ex, short, long]
