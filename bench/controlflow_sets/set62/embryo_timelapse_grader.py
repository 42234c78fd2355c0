"""IVF time-lapse incubator: embryo cleavage timing and viability grade.

Frames of one embryo well arrive every 15 minutes. Each frame is embedded by a
small CNN submodule that has its own exposure handling (over-exposed frames are
rescaled, very large frames are pooled down). Frames taken while the
incubator lamp was off are skipped. A cleavage event is recorded whenever the
embedding jumps between consecutive valid frames; after the configured number
of events the scan stops. Embryos without any observed division get a zero
grade; otherwise the grade combines a learned head with morphokinetic rules
(too-fast first cleavage or very short cell cycles are down-weighted).

Kind: X.  Constructs: 1, 2, 3, 5, 6, 7, 8.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


class FrameEncoder(nn.Module):
    def __init__(self, dim=16, max_side=48):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, dim, 3, padding=1), nn.ReLU(),
        )
        self.max_side = max_side

    def forward(self, frame):
        # frame: [1, 1, H, W]
        if frame.shape[-1] > self.max_side:
            frame = F.adaptive_avg_pool2d(frame, (self.max_side, self.max_side))
        peak = frame.max()
        if peak > 1.0:
            frame = frame / peak  # over-exposed: normalise to the brightest pixel
        return self.conv(frame).mean(dim=(2, 3)).squeeze(0)


class EmbryoGrader(nn.Module):
    def __init__(self, hours_per_frame=0.25, dark_level=0.05, event_threshold=0.01,
                 max_events=3, min_t2_hours=1.0):
        super().__init__()
        self.encoder = FrameEncoder()
        self.grade_head = nn.Sequential(nn.Linear(16 + 3, 16), nn.ReLU(), nn.Linear(16, 1))
        self.hours_per_frame = hours_per_frame
        self.dark_level = dark_level
        self.event_threshold = event_threshold
        self.max_events = max_events
        self.min_t2_hours = min_t2_hours

    def forward(self, frames):
        # frames: [T, 1, H, W] grey-level time-lapse of one well
        events = []
        prev = None
        last = torch.zeros(16)
        for t in range(frames.shape[0]):
            frame = frames[t:t + 1]
            if frame.mean() < self.dark_level:
                continue  # lamp off / door open
            emb = self.encoder(frame)
            if prev is not None and (emb - prev).norm() > self.event_threshold * prev.norm():
                events.append(torch.tensor(t * self.hours_per_frame))
                if len(events) == self.max_events:
                    break
            prev = emb
            last = emb

        if len(events) == 0:
            return torch.full((self.max_events,), -1.0), torch.zeros(1)  # arrested / not dividing

        times = torch.stack(events)
        if times.shape[0] < self.max_events:
            times = torch.cat([times, times.new_full((self.max_events - times.shape[0],), -1.0)])
        grade = torch.sigmoid(self.grade_head(torch.cat([last, times / 10.0]))).reshape(1)
        if times[0] < self.min_t2_hours:
            grade = grade * 0.5  # suspiciously early first cleavage (direct cleavage / artefact)
        return times, grade


def model():
    torch.manual_seed(636)
    return EmbryoGrader().eval()


def _blob_frame(cells, side, brightness=0.6):
    yy, xx = torch.meshgrid(torch.linspace(-1, 1, side), torch.linspace(-1, 1, side), indexing="ij")
    img = torch.full((side, side), 0.2)
    centres = {1: [(0.0, 0.0)], 2: [(-0.3, 0.0), (0.3, 0.0)],
               4: [(-0.3, -0.3), (0.3, -0.3), (-0.3, 0.3), (0.3, 0.3)]}[cells]
    r = 0.5 if cells == 1 else (0.3 if cells == 2 else 0.22)
    for cy, cx in centres:
        img = img + brightness * (((yy - cy) ** 2 + (xx - cx) ** 2) < r * r).float()
    return img.reshape(1, side, side)


def _movie(schedule, side=32, dark=(), brightness=0.6):
    """schedule: list of cell counts per frame."""
    frames = [_blob_frame(c, side, brightness) for c in schedule]
    for d in dark:
        frames[d] = torch.zeros(1, side, side)
    return (torch.stack(frames),)


def example_inputs():
    return _movie([1] * 6 + [2] * 5 + [4] * 5, dark=(3,))


def dynamic_shapes():
    side = Dim("side", min=16, max=96)
    return ({0: Dim("frames", min=2, max=96), 2: side, 3: side},)


def verify_inputs():
    return [
        example_inputs(),                              # one dark frame skipped; 2 divisions (t=1.5h, 2.75h), loop ends
                                                       # without break, times padded with -1, no penalty
        _movie([1] * 3 + [2] * 3 + [4] * 3 + [2] * 3 + [1] * 3, side=64),  # 64 px frames pooled in the encoder;
                                                       # break at the 3rd event; first event at 0.75 h -> penalty
        _movie([1] * 8, side=24),                      # no division: early return of -1 times and zero grade
        _movie([1, 2, 2, 2, 4], brightness=1.5),       # over-exposed frames renormalised; first cleavage at 0.25 h
                                                       # -> early-cleavage penalty
        _movie([1, 1], dark=(0,)),                     # 2 frames, first dark: single valid frame, no events
    ]
