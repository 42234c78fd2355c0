"""Eye-tracking event detection and reading-behaviour classification: a velocity-threshold
(I-VT) state machine walks the gaze samples, handling blinks (pupil lost), fixations and
saccades, records fixations (centroid + duration) and saccade amplitudes / regressions,
aborts on a tracker that keeps losing the eye, then a small network classifies the
scan-path as reading vs visual search.

Kind X. Constructs: 1 (if on per-sample tensor predicates), 2 (early return when no
fixation was found, sac_start assigned in one branch with a value from before the loop),
3 (or of two tensor predicates for lost samples), 5 (for over the dynamic number of samples, Python lists
of tensors -> stack), 6 (continue on blink samples / re-acquisition, break when the eye
is lost too often), 7 (fixation-closing and feature helpers with branches).
"""
import torch
import torch.nn as nn

FIX, SAC, BLINK = 0, 1, 2


class FixationDetector(nn.Module):
    def __init__(self, fs=250.0, vel_threshold=30.0, min_fix_samples=15, max_blinks=4):
        super().__init__()
        self.fs = fs
        self.vel_threshold = vel_threshold
        self.min_fix_samples = min_fix_samples
        self.max_blinks = max_blinks
        self.classifier = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 2))

    def close_fixation(self, fixations, xy, start, end):
        if end - start >= self.min_fix_samples:
            dur_ms = torch.tensor((end - start) * 1000.0 / self.fs)
            fixations.append(torch.cat([xy[start:end].mean(0), dur_ms[None]]))

    def scanpath_features(self, fix, amps, regressions, n_blinks):
        if len(amps) > 0:
            amp = torch.stack(amps)
            mean_amp, reg_frac = amp.mean(), regressions / amp.shape[0]
        else:
            mean_amp, reg_frac = torch.zeros(()), torch.zeros(())
        return torch.stack([fix.shape[0] / 10.0 + 0.0 * mean_amp, fix[:, 2].mean() / 300.0,
                            mean_amp / 5.0, reg_frac, torch.tensor(n_blinks / 4.0)])

    def forward(self, gaze):
        # gaze: (N, 3) x, y [deg], pupil diameter [mm] (<= 0 when the eye is not tracked;
        # some trackers instead report NaN positions)
        xy, pupil = gaze[:, :2], gaze[:, 2]
        state = BLINK if pupil[0] <= 0 else FIX
        start, sac_start = 0, 0
        n_blinks = 0
        fixations, amps = [], []
        regressions = torch.zeros(())
        n = gaze.shape[0]
        for i in range(1, n):
            if pupil[i] <= 0 or torch.isnan(xy[i]).any():
                if state == FIX:
                    self.close_fixation(fixations, xy, start, i)
                if state != BLINK:
                    n_blinks += 1
                state = BLINK
                if n_blinks > self.max_blinks:
                    break                              # tracker keeps losing the eye
                continue
            if state == BLINK:
                state, start = FIX, i                  # eye re-acquired: new fixation candidate
                continue
            vel = (xy[i] - xy[i - 1]).norm() * self.fs
            if vel < self.vel_threshold:
                if state == SAC:
                    amps.append((xy[i] - xy[sac_start]).norm())
                    if xy[i, 0] < xy[sac_start, 0] - 0.5:
                        regressions = regressions + 1.0    # leftward jump: re-reading
                    state, start = FIX, i
            elif state == FIX:
                self.close_fixation(fixations, xy, start, i)
                state, sac_start = SAC, i - 1
        if state == FIX:
            self.close_fixation(fixations, xy, start, n)
        if len(fixations) == 0:
            return torch.zeros(1, 3), torch.zeros(2)
        fix = torch.stack(fixations)
        logits = self.classifier(self.scanpath_features(fix, amps, regressions, n_blinks))
        return fix, logits


def model():
    torch.manual_seed(3912)
    return FixationDetector().eval()


def _make_gaze(seed, segments, jitter=0.008):
    """segments: ("fix", x, y, n) | ("sac", n[, x, y]) | ("blink", n); a saccade moves to (x, y)
    or else to the next fixation."""
    g = torch.Generator().manual_seed(seed)
    rows = []
    pos = None
    for i, seg in enumerate(segments):
        if seg[0] == "fix":
            _, x, y, n = seg
            pos = torch.tensor([x, y])
            for _ in range(n):
                rows.append(torch.cat([pos + jitter * torch.randn(2, generator=g), torch.tensor([3.5])]))
        elif seg[0] == "sac":
            if len(seg) > 2:
                tgt = torch.tensor([seg[2], seg[3]])
            else:
                nxt = next(s for s in segments[i + 1:] if s[0] == "fix")
                tgt = torch.tensor([nxt[1], nxt[2]])
            src = pos if pos is not None else tgt
            for k in range(1, seg[1] + 1):
                p = src + (tgt - src) * k / (seg[1] + 1)
                rows.append(torch.cat([p, torch.tensor([3.4])]))
        else:
            for _ in range(seg[1]):
                rows.append(torch.tensor([0.0, 0.0, 0.0]))
    return (torch.stack(rows),)


def example_inputs():
    # reading a line: left-to-right fixations, one regression, one blink in the middle
    return _make_gaze(1, [("fix", 0.0, 0.0, 40), ("sac", 3), ("fix", 2.0, 0.1, 50), ("sac", 3),
                          ("fix", 4.1, 0.0, 30), ("blink", 25), ("fix", 4.2, 0.1, 35), ("sac", 3),
                          ("fix", 1.5, 0.0, 45), ("sac", 2), ("fix", 6.0, 0.2, 40)])


def dynamic_shapes():
    return ({0: torch.export.Dim("samples", min=8, max=600)},)


def verify_inputs():
    ex = example_inputs()   # the example: path described in example_inputs()
    # visual search: big jumps in all directions, a too-short fixation (10 samples) is
    # dropped, recording starts inside a blink and ends inside a saccade, a NaN-position
    # dropout (pupil still reported) in the middle of a fixation splits it
    (search,) = _make_gaze(2, [("blink", 5), ("fix", 5.0, 5.0, 30), ("sac", 4), ("fix", -6.0, 2.0, 10),
                               ("sac", 4), ("fix", 8.0, -4.0, 60), ("sac", 5), ("fix", -2.0, -7.0, 25),
                               ("sac", 3, 6.0, 0.0)])
    search[80:83, :2] = float("nan")
    search = (search,)
    # flaky tracker: blinks again and again -> loop breaks after max_blinks
    flaky = _make_gaze(3, [("fix", 1.0, 1.0, 20), ("blink", 4), ("fix", 1.1, 1.0, 20), ("blink", 4),
                           ("fix", 1.2, 1.0, 20), ("blink", 4), ("fix", 1.3, 1.0, 20), ("blink", 4),
                           ("fix", 1.4, 1.0, 20), ("blink", 4), ("fix", 1.5, 1.0, 20), ("blink", 4),
                           ("fix", 1.6, 1.0, 20)])
    # 8 samples of steady gaze: shorter than a fixation -> no fixation, early return
    short = _make_gaze(4, [("fix", 0.0, 0.0, 8)])
    # one long fixation, no saccade at all (features without saccades)
    stare = _make_gaze(5, [("fix", 3.0, 3.0, 120)])
    return [ex, search, flaky, short, stare]
