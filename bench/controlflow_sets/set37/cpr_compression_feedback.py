"""CPR feedback puck: chest-compression depth / rate coaching from a 100 Hz accelerometer.

The puck sits on the patient's sternum.  Acceleration is double-integrated into
displacement, compression depth and rate are estimated over the most recent 2 s,
and the rescuer gets one of four prompts.
"""
import math

import torch
import torch.nn as nn
from torch.export import Dim

PUSH_HARDER, SLOW_DOWN, GOOD, START = 0, 1, 2, 3


class CPRFeedback(nn.Module):
    def __init__(self, fs=100.0, remove_gravity=True):
        super().__init__()
        self.fs = fs
        self.remove_gravity = remove_gravity
        self.window = int(2 * fs)          # analyse the last two seconds
        self.min_depth_cm = 5.0             # AHA guideline 5-6 cm
        self.max_depth_cm = 6.5
        self.max_rate = 123.0               # compressions / minute (guideline 100-120, small tolerance)
        self.still_g = 0.5                  # m/s^2, below this nobody is pushing
        self.quality = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 3))

    def forward(self, accel):
        if accel.shape[0] > self.window:
            accel = accel[-self.window:]
        if self.remove_gravity:             # raw z axis still contains 1 g
            accel = accel - 9.81
        dt = 1.0 / self.fs
        vel = torch.cumsum(accel, 0) * dt
        vel = vel - vel.mean()              # kill integration drift
        disp = torch.cumsum(vel, 0) * dt * 100.0   # cm
        # remove the remaining linear drift of the double integration
        t = torch.arange(disp.shape[0], dtype=disp.dtype)
        t = t - t.mean()
        slope = (t * (disp - disp.mean())).sum() / (t * t).sum()
        disp = disp - disp.mean() - slope * t

        depth = disp.max() - disp.min()
        crossings = ((vel[1:] * vel[:-1]) < 0).sum().to(accel.dtype)
        rate = crossings / 2.0 / (accel.shape[0] * dt) * 60.0

        feats = torch.stack([depth / 10.0, rate / 100.0, disp.std() / 10.0, accel.abs().mean() / 10.0])
        scores = self.quality(feats).softmax(-1)

        if accel.abs().max() < self.still_g:
            # nothing on the sensor: tell the rescuer to start
            return torch.tensor(START), depth, rate, scores

        if depth < self.min_depth_cm and not rate > self.max_rate:
            prompt = torch.tensor(PUSH_HARDER)
        elif rate > self.max_rate or depth > self.max_depth_cm:
            prompt = torch.tensor(SLOW_DOWN)
        else:
            prompt = torch.tensor(GOOD)
        return prompt, depth, rate, scores


def model():
    torch.manual_seed(37)
    return CPRFeedback().eval()


def _gen_compressions(n, depth_cm, per_min, noise_seed=0):
    fs = 100.0
    t = torch.arange(n, dtype=torch.float32) / fs
    w = 2 * math.pi * per_min / 60.0
    # displacement A*sin(wt) (cm) -> acceleration (m/s^2)
    a = depth_cm / 2.0
    acc = -(a / 100.0) * w * w * torch.sin(w * t + 0.3)
    g = torch.Generator().manual_seed(noise_seed)
    return acc + 9.81 + 0.01 * torch.randn(n, generator=g)


def example_inputs():
    return (_gen_compressions(160, 5.2, 105),)


def dynamic_shapes():
    return ({0: Dim("samples", min=32, max=512)},)


def verify_inputs():
    g = torch.Generator().manual_seed(5)
    return [
        example_inputs(),                                   # short window (no crop), good depth & rate -> GOOD
        (_gen_compressions(400, 5.6, 105, 1),),             # long window -> cropped to last 2 s, GOOD
        (_gen_compressions(300, 3.0, 100, 2),),             # too shallow, normal rate -> PUSH_HARDER
        (_gen_compressions(250, 5.5, 150, 3),),             # rate too high -> SLOW_DOWN (and-not false via rate)
        (_gen_compressions(200, 8.0, 100, 4),),             # too deep -> SLOW_DOWN via depth
        (_gen_compressions(180, 3.0, 150, 6),),             # shallow but too fast: `not rate>max` false -> SLOW_DOWN
        (9.81 + 0.02 * torch.randn(120, generator=g),),            # sensor still -> early return START
    ]
