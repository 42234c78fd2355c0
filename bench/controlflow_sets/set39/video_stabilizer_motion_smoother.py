"""Digital video stabilisation for a phone camera: per-frame inter-frame motion (dx, dy,
d-theta) from a feature tracker is bias-corrected by a small network, integrated into a
camera path and smoothed by a shot-aware exponential smoother (restarts at scene cuts,
coasts through low-confidence frames). If the stabilising correction would need more
crop than the sensor margin allows, smoothing strength is halved and the path recomputed.

Kind X. Constructs: 1 (if on tensor motion / confidence), 2 (early return for clips too
short to stabilise, variable assigned in one branch with a value from before the if),
3 (and of two tensor predicates in the scene-cut test, of a tensor and a Python
condition in the while), 4 (while re-running the smoother on
a tensor crop condition), 5 (for over the dynamic number of frames in the submodule,
Python lists -> stack), 6 (continue at scene cuts), 7 (smoother submodule with its own
loop and branches, called repeatedly from forward), 8 (branch on the dynamic frame count).
"""
import torch
import torch.nn as nn


class ShotAwareSmoother(nn.Module):
    def __init__(self, cut_threshold=40.0, min_conf=0.3):
        super().__init__()
        self.cut_threshold = cut_threshold
        self.min_conf = min_conf

    def forward(self, motion, conf, strength):
        alpha = 1.0 - 0.9 * strength               # EMA weight of the newest sample
        traj = torch.zeros(3)
        smooth = torch.zeros(3)
        last_good = torch.zeros(3)
        raw_path, smooth_path = [], []
        for t in range(motion.shape[0]):
            m = motion[t]
            if m[:2].abs().max() > self.cut_threshold and conf[t] < self.min_conf:
                # scene cut (huge jump the tracker cannot follow): the new shot starts its own path
                traj = torch.zeros(3)
                smooth = torch.zeros(3)
                raw_path.append(traj)
                smooth_path.append(smooth)
                continue
            if conf[t] < self.min_conf:
                m = last_good                      # tracker unsure: coast on the last good motion
            else:
                last_good = m
            traj = traj + m
            smooth = smooth + alpha * (traj - smooth)
            raw_path.append(traj)
            smooth_path.append(smooth)
        return torch.stack(raw_path), torch.stack(smooth_path)


class Stabilizer(nn.Module):
    def __init__(self, warmup=8, max_crop=25.0, min_strength=0.3):
        super().__init__()
        self.warmup = warmup
        self.max_crop = max_crop
        self.min_strength = min_strength
        self.refine = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 3))
        self.smoother = ShotAwareSmoother()

    def forward(self, motion, conf):
        # motion: (F, 3) dx, dy [px], dtheta [mrad] between consecutive frames; conf: (F,) 0..1
        if motion.shape[0] < self.warmup:
            return torch.zeros_like(motion), torch.zeros(())
        motion = motion + 0.1 * torch.tanh(self.refine(torch.cat([motion / 10.0, conf[:, None]], 1)))
        strength = 1.0
        raw, smooth = self.smoother(motion, conf, strength)
        correction = smooth - raw
        while correction[:, :2].abs().max() > self.max_crop and strength > self.min_strength:
            strength = strength * 0.5
            raw, smooth = self.smoother(motion, conf, strength)
            correction = smooth - raw
        return correction, correction[:, :2].abs().max()


def model():
    torch.manual_seed(3918)
    return Stabilizer().eval()


def _make_clip(seed, n, shake=2.0, pan=(0.0, 0.0), cuts=(), low_conf=(), whip=None):
    g = torch.Generator().manual_seed(seed)
    motion = shake * torch.randn(n, 3, generator=g)
    motion[:, 0] += pan[0]
    motion[:, 1] += pan[1]
    if whip is not None:
        lo, hi, v = whip
        motion[lo:hi, 0] += v
    conf = 0.6 + 0.4 * torch.rand(n, generator=g)
    for i in low_conf:
        conf[i] = 0.1
    for c in cuts:
        motion[c, :2] = torch.tensor([120.0, -80.0])
        conf[c] = 0.05
    return motion, conf


def example_inputs():
    # 30 frames of handheld shake with a scene cut and two low-confidence frames: correction
    # fits the crop at full strength (while runs zero times)
    return _make_clip(1, 30, cuts=(12,), low_conf=(5, 20))


def dynamic_shapes():
    f = torch.export.Dim("frames", min=4, max=300)
    return ({0: f}, {0: f})


def verify_inputs():
    ex = example_inputs()   # the example: path described in example_inputs()
    # 5 frames: shorter than warm-up -> early return
    short = _make_clip(2, 5)
    # steady pan of 12 px/frame: the heavy smoother lags far behind, needs > 25 px crop ->
    # strength halved once, then fits
    pan = _make_clip(3, 40, shake=1.0, pan=(12.0, 0.0))
    # fast pan of 40 px/frame (tracked with good confidence, so not a cut): halved twice
    fast = _make_clip(6, 50, shake=1.0, whip=(10, 40, 40.0))
    # whip pan of 120 px/frame that no strength can absorb: the while loop stops on the
    # minimum-strength operand
    whip = _make_clip(4, 60, shake=0.5, whip=(20, 45, 120.0))
    # long clip (120 frames) with several cuts (two in a row) and dropouts
    long = _make_clip(5, 120, shake=3.0, cuts=(30, 31, 77), low_conf=(3, 4, 5, 60, 100))
    return [ex, short, pan, fast, whip, long]
