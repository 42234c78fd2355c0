"""Sizes equal at run time that torch cannot prove equal, and branches in loop bodies that must not
run on the path not taken: a smoother over a filtered series (its length an unbacked size), a
banded network on tall inputs (a chunked loop under a size branch), a stroke splitter that reads one sample ahead, a tracker whose lists start
with an empty placeholder row, an early return whose paths return different numbers of rows, a crossfade whose frame count is
`round(t.item() * fps)` (a float tensor while exporting) after early returns."""

import torch
import torch.nn.functional as F
from torch import nn

from tests.rewriters.models.case import Case, seeded


def settle(v):
    """Jacobi steps of a smoother: each value moves towards its neighbours' mean."""
    s, steps = v, 0
    change = torch.full((), 100.0)
    while change > 0.01 and steps < 30:
        middle = (v[1:-1] + 0.5 * (s[:-2] + s[2:])) / 2
        first = (v[:1] + 0.5 * s[1:2]) / 1.5
        last = (v[-1:] + 0.5 * s[-2:-1]) / 1.5
        new = torch.cat([first, middle, last])
        change = (new - s).abs().amax()
        s = new
        steps += 1
    return s


class FilteredSmoother(nn.Module):
    """Readings below a floor are dropped (their gap counted); the kept series is smoothed until
    it settles (each step rebuilds it from its ends and interior) and fed to a GRU cell with each
    reading's gap."""

    def __init__(self):
        super().__init__()
        self.cell = nn.GRUCell(2, 8)

    def forward(self, series):
        kept, gaps = [], []
        gap = torch.zeros(())
        for t in range(series.shape[0]):
            if series[t] < 1.0:
                gap = gap + 1
                continue
            kept.append(series[t])
            gaps.append(gap)
            gap = torch.zeros(())
        if (series >= 1.0).sum().item() < 3:
            return torch.zeros(8)
        s = settle(torch.stack(kept))
        h = torch.zeros(1, 8)
        for k in range(s.shape[0]):
            h = self.cell(torch.stack([s[k], gaps[k]]).unsqueeze(0), h)
        return h[0]


class StrokeSplitter(nn.Module):
    """Samples are split where the pen lifts or jumps; each piece of two or more pen-down samples
    is resampled to 4 points (reading the next sample only while there is one)."""

    def forward(self, pen):
        pieces = [torch.zeros(0, 4)]
        start, n = 0, pen.shape[0]
        for i in range(1, n + 1):
            if i < n:
                jump = (pen[i, :2] - pen[i - 1, :2]).abs().sum()
                if pen[i, 2] > 0.5 and jump < 1.0:
                    continue
            seg = pen[start:i]
            down = seg[seg[:, 2] > 0.5]
            if down.shape[0] >= 2:
                line = F.interpolate(down[:, :1].t().unsqueeze(0), size=4, mode="linear", align_corners=True)
                pieces.append(line[0])
            start = i
        return torch.cat(pieces)


class BandedDensity(nn.Module):
    """Tall images go through the convolution in bands of 8 rows (the last band shorter), others
    whole; a dense result is damped."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 1, 3, padding=1)

    def forward(self, img):
        if img.shape[2] > 12:
            bands = []
            for y in range(0, img.shape[2], 8):
                bands.append(self.conv(img[:, :, y : y + 8]))
            dens = torch.cat(bands, 2)
        else:
            dens = self.conv(img)
        if dens.sum() > 0:
            dens = dens * 0.5
        return dens


class PlaceholderTrack(nn.Module):
    """Positions of the brightest cell per frame; frames without a bright cell repeat the last
    position, and three of them in a row end the track. Lists start with an empty row block."""

    def forward(self, frames):
        pos = torch.zeros(2)
        misses = 0
        track = [torch.zeros(0, 2)]
        for t in range(frames.shape[0]):
            frame = frames[t]
            if frame.max() < 0.5:
                misses += 1
                if misses > 2:
                    break
                track.append(pos.unsqueeze(0))
                continue
            misses = 0
            idx = frame.flatten().argmax()
            pos = torch.stack([idx // frame.shape[1], idx % frame.shape[1]]).float()
            track.append(pos.unsqueeze(0))
        return torch.cat(track)


class SpikeLog(nn.Module):
    """An early return when the motor never moves; otherwise the current spikes while moving, up to
    the third (a `break`): the two paths return different numbers of rows."""

    def forward(self, current):
        moving = current > 0.5
        if not moving.any():
            return torch.zeros(0), torch.zeros(())
        peaks, count = [], 0
        for t in range(current.shape[0]):
            if not moving[t]:
                continue
            if current[t] > 3.0:
                peaks.append(current[t])
                count += 1
                if count > 2:
                    break
        spikes = torch.stack(peaks) if len(peaks) > 0 else torch.zeros(0)
        return spikes, torch.tensor(float(count))


def _series(*values):
    return (torch.tensor(values, dtype=torch.float32),)


def _pen(*rows):
    return (torch.tensor(rows, dtype=torch.float32),)


def _frames(t, bright, seed):
    g = torch.Generator().manual_seed(seed)
    x = 0.3 * torch.rand(t, 4, 5, generator=g)
    for k in bright:
        x[k, k % 4, (2 * k) % 5] = 1.0
    return (x,)


def _img(h, w, level, seed):
    return (level * torch.randn(1, 1, h, w, generator=torch.Generator().manual_seed(seed)),)


class Crossfade(nn.Module):
    """One frame per tick of a fade of `seconds`: none to fade snaps, a zero-time fade snaps too."""

    FPS = 10

    def forward(self, current, target, seconds):
        if seconds < 0.05:
            return target.unsqueeze(0)
        if (target - current).abs().max() < 0.5:
            return current.unsqueeze(0)
        n = max(1, round(seconds.item() * self.FPS))
        frames = []
        for k in range(1, n + 1):
            a = k / n
            frames.append(current + (target - current) * a * a * (3.0 - 2.0 * a))
        return torch.stack(frames)


def _fade(seconds, n=5):
    return torch.linspace(0.0, 80.0, n), torch.linspace(90.0, 10.0, n), torch.tensor(seconds)


CASES = [
    Case(
        "smoother_over_a_filtered_series",
        seeded(FilteredSmoother),
        _series(5.0, 0.0, 6.0, 9.0, 7.0, 8.0, 0.5, 6.5),
        [
            _series(3.0, 4.0, 0.0, 0.0, 5.0, 9.0, 2.0, 2.5, 8.0, 7.0),
            _series(0.0, 3.0, 0.0, 4.0),
            _series(2.0, 2.0),
        ],
        ({0: torch.export.Dim("steps", min=2, max=64)},),
        constructs=("while->while_loop",),
    ),
    Case(
        "stroke_pieces_read_one_sample_ahead",
        seeded(StrokeSplitter),
        _pen([0, 0, 1], [0.2, 0, 1], [0.4, 0.1, 1], [3, 3, 1], [3.2, 3, 1], [3.4, 3.1, 0], [3.5, 3, 1]),
        [
            _pen([0, 0, 0], [0.1, 0, 0], [0.2, 0, 1]),
            _pen([0, 0, 1], [0.1, 0, 1], [0.2, 0, 1], [0.3, 0, 1], [0.4, 0, 1]),
            _pen([0, 0, 1], [5, 5, 1], [10, 10, 1], [10.2, 10, 1]),
        ],
        ({0: torch.export.Dim("samples", min=3, max=64)},),
    ),
    Case(
        "bands_of_a_tall_image_under_a_size_branch",
        seeded(BandedDensity),
        _img(10, 6, 1.0, 0),
        [_img(21, 6, 1.0, 1), _img(16, 5, -1.0, 2), _img(6, 7, -1.0, 3), _img(13, 4, 1.0, 4)],
        ({2: torch.export.Dim("h", min=4, max=64), 3: torch.export.Dim("w", min=4, max=64)},),
    ),
    Case(
        "track_lists_start_with_an_empty_block",
        seeded(PlaceholderTrack),
        _frames(6, [0, 1, 3, 4, 5], 0),
        [_frames(8, [0, 1], 1), _frames(4, [], 2), _frames(7, [0, 2, 4, 6], 3)],
        ({0: torch.export.Dim("frames", min=2, max=32)},),
    ),
    Case(
        "spikes_after_an_early_return_up_to_a_break",
        seeded(SpikeLog),
        _series(0.0, 2.0, 4.0, 2.0, 5.0, 0.0),
        [_series(0.0, 0.1, 0.0), _series(4.0, 4.5, 5.0, 6.0, 7.0), _series(1.0, 1.0, 1.0, 0.0)],
        ({0: torch.export.Dim("t", min=3, max=64)},),
    ),
    Case(
        "a_loop_appending_a_frame_count_rounded_from_a_tensor_after_early_returns",
        seeded(Crossfade),
        _fade(1.5),
        [
            _fade(0.0),  # snaps
            (torch.ones(4), torch.ones(4), torch.tensor(2.0)),  # nothing to fade
            _fade(0.12, 2),  # one frame
            _fade(3.04, 9),  # 30 frames
        ],
        (
            {0: torch.export.Dim("channels", min=2, max=64)},
            {0: torch.export.Dim("channels", min=2, max=64)},
            None,
        ),
    ),
]
