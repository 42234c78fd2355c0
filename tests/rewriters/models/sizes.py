"""Loops and branches whose trip counts and value sizes come from dynamic dims: chunks whose last
one is shorter, tiles counted by ``h // k``, per-sample routing, bidirectional lists, early exits
that pool, ``min(k, n)`` sizes, a ``topk`` of a size only where a size test allows it."""

import torch
import torch.nn.functional as F
from torch import nn

from tests.rewriters.models.case import Case, seeded

LENGTH = torch.export.Dim("length", min=2, max=96)


class ChunkStats(nn.Module):
    """range(0, n, k) over a dynamic length, the last chunk shorter; chunks concatenated back."""

    def forward(self, x):
        outs = []
        for start in range(0, x.shape[-1], 8):
            c = x[..., start : start + 8]
            outs.append(c - c.mean(dim=-1, keepdim=True))
        return torch.cat(outs, dim=-1)


class ChunkStatsOfLongInputs(nn.Module):
    """Rows scored in chunks only for long inputs (a cond on the size), each chunk centred on its
    own mean: a last chunk read at the full chunk length would give other values and rows."""

    def __init__(self):
        super().__init__()
        self.score = nn.Linear(3, 1)

    def centred(self, x):
        if x.shape[0] > 16:
            outs = []
            for start in range(0, x.shape[0], 8):
                s = self.score(x[start : start + 8]).squeeze(-1)
                outs.append(s - s.mean())
            return torch.cat(outs)
        s = self.score(x).squeeze(-1)
        return s - s.mean()

    def forward(self, x):
        return self.centred(x) * x[:, 0]


class BlocksOfLongInputs(nn.Module):
    """Long signals levelled block by block over a block count (``(n + 15) // 16``), each block
    ``x[b * 16 : (b + 1) * 16]`` centred on its own mean: the last is shorter unless 16 divides the
    length, and one read at the full length would give other values and more of them."""

    def forward(self, x):
        if x.shape[0] > 16:
            out = []
            blocks = (x.shape[0] + 15) // 16
            for b in range(blocks):
                block = x[b * 16 : (b + 1) * 16]
                out.append(block - block.mean())
            return torch.cat(out)
        return x - x.mean()


class CeilingBlocks(nn.Module):
    """Blocks of 8 counted by ``(n + 7) // 8`` in the loop header, each scaled by its peak."""

    def forward(self, x):
        out = []
        for b in range((x.shape[1] + 7) // 8):
            block = x[:, b * 8 : (b + 1) * 8]
            out.append(block / (block.abs().amax(dim=1, keepdim=True) + 1.0))
        return torch.cat(out, dim=1)


class SpectralCentroid(nn.Module):
    """The power spectrum of a signal of any length through a Hann window of that length, its
    centroid on the rfftfreq axis, and a tensor `if` on it (a brightness gate)."""

    def forward(self, x):
        window = torch.hann_window(x.shape[-1])
        power = torch.fft.rfft(x * window, dim=-1).abs() ** 2
        freqs = torch.fft.rfftfreq(x.shape[-1], 1.0 / 128)
        centroid = (power * freqs).sum(-1) / (power.sum(-1) + 1e-6)
        if centroid.mean() > 20.0:
            return centroid, power[..., 0]
        return centroid, torch.zeros_like(centroid)


class CatchUp(nn.Module):
    """A while loop whose body reads floats of a dynamic size (`left = 42.0 - k`, `k / 42.0`)."""

    def forward(self, x, goal):
        k = x.shape[0]
        left, frac = 42.0 - k, k / 42.0
        pace = x.mean()
        step = torch.zeros(())
        projected = x.sum() + left * pace
        while projected > goal[0] and step < 20.0:
            step = step + 1.0
            projected = x.sum() + left * (pace - step) * (1.0 + 0.1 * frac)
        return projected, step


class Tiles(nn.Module):
    """range(h // k) full tiles (possibly none) read as x[:, i * k : (i + 1) * k], plus the rest."""

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(3, 4)

    def forward(self, x):
        n_full = x.shape[1] // 5
        feats = [x.new_zeros(x.shape[0], 4)]
        for i in range(n_full):
            feats.append(self.proj(x[:, i * 5 : (i + 1) * 5].mean(dim=1)))
        return torch.stack(feats, dim=1)


class RouteEach(nn.Module):
    """One row at a time over a dynamic batch; each row appended from one of two branches."""

    def __init__(self):
        super().__init__()
        self.big = nn.Linear(6, 3)
        self.small = nn.Linear(6, 3)

    def forward(self, x):
        outs = []
        for i in range(x.shape[0]):
            row = x[i : i + 1]
            if row.abs().mean() > 1.0:
                outs.append(self.big(row))
            else:
                outs.append(self.small(row) * 2)
        return torch.cat(outs, dim=0)


class BothWays(nn.Module):
    """A hand-written bidirectional RNN: `h = c = zeros`, a reversed range, `outs.reverse()`."""

    def __init__(self):
        super().__init__()
        self.fwd = nn.LSTMCell(3, 5)
        self.bwd = nn.LSTMCell(3, 5)

    def forward(self, x):
        h = c = x.new_zeros(x.shape[0], 5)
        ahead = []
        for t in range(x.shape[1]):
            h, c = self.fwd(x[:, t], (h, c))
            ahead.append(h)
        h = c = x.new_zeros(x.shape[0], 5)
        back = []
        for t in range(x.shape[1] - 1, -1, -1):
            h, c = self.bwd(x[:, t], (h, c))
            back.append(h)
        back.reverse()
        return torch.cat([torch.stack(ahead, 1), torch.stack(back, 1)], dim=-1)


class ExitEarly(nn.Module):
    """`return` inside a tensor `if` in a loop over stages that pool between them."""

    def __init__(self):
        super().__init__()
        self.stages = nn.ModuleList(nn.Conv2d(c, 4, 3, padding=1) for c in (2, 4, 4))
        self.heads = nn.ModuleList(nn.Linear(4, 3) for _ in range(3))

    def forward(self, x):
        logits = None
        for stage, head in zip(self.stages, self.heads):
            x = torch.relu(stage(x))
            logits = head(x.mean(dim=(2, 3)))
            if logits.softmax(-1).max() > 0.6:
                return logits
            x = F.max_pool2d(x, 2)
        return logits


class TopFew(nn.Module):
    """k = min(limit, n) on a dynamic count, then topk(k) and a tensor early return."""

    def forward(self, scores):
        k = min(4, scores.shape[0])
        top, idx = scores.topk(k)  # indices of ties differ between runtimes: only values are returned
        if (top < 0).all():
            return torch.zeros(k), top.sum()
        return top * 2, scores[idx].sum()


class KeepStrongest(nn.Module):
    """Keeps the strongest three quarters of the tokens (at least 3, in their order); a sequence
    that short is kept whole, since ``topk(keep)`` only runs where ``keep < n``."""

    def forward(self, x):
        n = x.shape[1]
        keep = max(3, n * 3 // 4)
        if keep >= n:
            return x * 2
        idx = x.norm(dim=-1).topk(keep, dim=1).indices.sort(dim=1).values
        return x.gather(1, idx.unsqueeze(-1).expand(-1, -1, x.shape[-1]))


class PadShort(nn.Module):
    """Sequences longer than 12 cut, shorter than 4 padded with ``full((b, 4 - n))``: the padding
    is a negative size at the example's length, where that branch never runs."""

    def forward(self, ids):
        if ids.shape[1] > 12:
            ids = ids[:, :12]
        elif ids.shape[1] < 4:
            pad = torch.full((ids.shape[0], 4 - ids.shape[1]), 0, dtype=ids.dtype)
            ids = torch.cat([ids, pad], dim=1)
        return (ids * 3).cumsum(dim=1)


class OneOrMany(nn.Module):
    """``p if p.numel() > 1 else p.reshape(1)``: the reshape only holds for a batch of one."""

    def __init__(self):
        super().__init__()
        self.head = nn.Linear(5, 1)

    def forward(self, x):
        p = torch.sigmoid(self.head(x).squeeze(1))
        return p if p.numel() > 1 else p.reshape(1) * 2


class ChunkedStream(nn.Module):
    """Chunks of a stream: silent chunks append zeros and `continue`; the others run a
    ModuleList (a Python loop inside the converted body) with a left-context cache."""

    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(4, 4) for _ in range(2))

    def forward(self, x):
        cache = torch.zeros(1, 2, 4)
        outs = []
        for c in range(x.shape[1] // 4):
            cur = x[:, c * 4 : (c + 1) * 4]
            if cur.abs().max() < 1e-3:
                outs.append(torch.zeros(1, 4, 4))
                cache = torch.zeros(1, 2, 4)
                continue
            h = torch.cat([cache, cur], dim=1)
            for layer in self.layers:
                h = torch.tanh(layer(h))
            outs.append(h[:, -4:])
            cache = cur[:, -2:]
        return torch.cat(outs, dim=1)


def _seq(*lengths):
    g = torch.Generator().manual_seed(3)
    return [(torch.randn(2, 3, n, generator=g),) for n in lengths]


class PadToMultipleOfFour(nn.Module):
    """`if T % 4 != 0: pad` with the example's length a multiple of 4: the padding branch is traced
    as it is (its test holds on no interval apart from the example, so nothing is clamped)."""

    def __init__(self):
        super().__init__()
        self.enc = nn.Conv1d(3, 4, 3, stride=2, padding=1)
        self.dec = nn.ConvTranspose1d(4, 3, 4, stride=2, padding=1)

    def forward(self, x):
        length = x.shape[-1]
        if length % 4 != 0:
            pad = 4 - length % 4
            x = torch.nn.functional.pad(x, (0, pad), mode="replicate")
        return ((self.dec(torch.relu(self.enc(x))) - x) ** 2).mean(dim=1)[:, :length]


class LagWindows(nn.Module):
    """Windows at lags 0..3 as long as the frame allows (``x.unfold(0, n - 3, 1)`` of a dynamic
    ``n``), then the best lag if one clearly stands out."""

    def forward(self, x):
        frames = x.unfold(0, x.shape[0] - 3, 1)
        d = ((frames - frames[0]) ** 2).mean(1)
        if d[1:].min() < 0.5 * d.mean():
            return d, d[1:].argmin() + 1
        return d, torch.zeros((), dtype=torch.int64)


class BandFromLengths(nn.Module):
    """A band widened to the length difference of two sequences: only sizes are assigned."""

    def forward(self, a, b):
        n, m = a.shape[0], b.shape[0]
        band, lo = 3, 0
        if abs(n - m) > band:
            band, lo = abs(n - m), 1
        return a.sum(0) * band + b.sum(0) + lo


CASES = [
    Case(
        "size_branch_on_a_remainder",
        seeded(PadToMultipleOfFour),
        (torch.randn(2, 3, 16),),
        [(torch.randn(2, 3, 13),), (torch.randn(2, 3, 6),), (torch.randn(2, 3, 33),)],
        ({2: torch.export.Dim("length", min=2, max=64)},),
        constructs=("if->cond",),
    ),
    Case(
        "sizes_assigned_by_a_branch_on_two_dynamic_sizes",
        seeded(BandFromLengths),
        (torch.randn(5, 2), torch.randn(6, 2)),
        [(torch.randn(2, 2), torch.randn(20, 2)), (torch.randn(20, 2), torch.randn(3, 2))],
        ({0: torch.export.Dim("n", min=2, max=40)}, {0: torch.export.Dim("m", min=2, max=40)}),
        constructs=("if->sym_ite",),
    ),
    Case(
        "chunks_last_shorter",
        seeded(ChunkStats),
        (torch.randn(2, 3, 20),),
        _seq(2, 7, 8, 9, 16, 17, 64),
        ({2: LENGTH},),
        constructs=("for->while_loop",),
    ),
    Case(
        "chunks_last_shorter_under_a_size_branch",
        seeded(ChunkStatsOfLongInputs),
        (torch.randn(20, 3),),
        [(torch.randn(n, 3),) for n in (2, 7, 16, 17, 21, 24, 25, 64)],
        ({0: LENGTH},),
        constructs=("for->while_loop",),
    ),
    Case(
        "blocks_counted_by_a_ceiling_division_the_last_shorter_under_a_size_branch",
        seeded(BlocksOfLongInputs),
        (torch.randn(40),),
        [(torch.randn(n),) for n in (2, 16, 17, 32, 33, 47, 96)],
        ({0: LENGTH},),
        constructs=("if->cond", "for->while_loop"),
    ),
    Case(
        "blocks_counted_in_the_loop_header_the_last_shorter",
        seeded(CeilingBlocks),
        (torch.randn(2, 20),),
        [(torch.randn(2, n),) for n in (2, 8, 9, 16, 17, 95)],
        ({1: LENGTH},),
        constructs=("for->while_loop",),
    ),
    Case(
        "a_hann_window_and_rfftfreq_of_a_dynamic_length",
        seeded(SpectralCentroid),
        (torch.randn(2, 64),),
        [(torch.randn(2, n),) for n in (2, 9, 64, 95)] + [(torch.cumsum(torch.randn(2, 80), -1),)],
        ({1: LENGTH},),
        constructs=("if->cond",),
    ),
    Case(
        "tiles_counted_by_floordiv",
        seeded(Tiles),
        (torch.randn(2, 12, 3),),
        [(torch.randn(2, n, 3),) for n in (2, 4, 5, 9, 10, 11, 40)],
        ({1: torch.export.Dim("rows", min=2, max=64)},),
        constructs=("for->while_loop",),
    ),
    Case(
        "append_from_both_branches",
        seeded(RouteEach),
        (torch.randn(3, 6),),
        [
            (torch.randn(1, 6) * 3,),
            (torch.randn(1, 6) * 0.1,),
            (torch.randn(5, 6) * torch.arange(5.0)[:, None],),
        ],
        ({0: torch.export.Dim("batch", min=1, max=16)},),
        constructs=("for->scan",),
    ),
    Case(
        "while_body_reading_floats_of_a_size",
        seeded(CatchUp),
        (torch.full((10,), 5.0), torch.tensor([150.0])),
        [  # one step; none (already under the goal); stopped by the cap
            (torch.full((3,), 2.0), torch.tensor([80.0])),
            (torch.full((30,), 1.0), torch.tensor([100.0])),
            (torch.full((4,), 50.0), torch.tensor([-1000.0])),
        ],
        ({0: torch.export.Dim("km", min=2, max=41)}, None),
        constructs=("while->while_loop",),
    ),
    Case(
        "bidirectional_lists",
        seeded(BothWays),
        (torch.randn(2, 6, 3),),
        [(torch.randn(2, n, 3),) for n in (1, 2, 9)],
        ({1: torch.export.Dim("steps", min=1, max=32)},),
        constructs=("for->scan",),
    ),
    Case(
        "early_exit_between_pools",
        seeded(ExitEarly),
        (torch.randn(2, 2, 16, 16),),
        [(torch.randn(1, 2, 16, 16) * s,) for s in (0.01, 1.0, 30.0, 300.0)],
        ({0: torch.export.Dim("n", min=1, max=4)},),
        constructs=("if->cond",),
    ),
    Case(
        "min_of_limit_and_size",
        seeded(TopFew),
        (torch.randn(10),),
        [(torch.randn(2),), (-torch.rand(7) - 0.1,), (torch.randn(30),)],
        ({0: torch.export.Dim("n", min=1, max=64)},),
        constructs=("if->cond",),
    ),
    Case(
        "topk_of_a_size_only_where_a_size_test_allows_it",
        seeded(KeepStrongest),
        (torch.randn(2, 10, 4),),
        [(torch.randn(2, n, 4),) for n in (2, 3, 4, 5, 37)],
        ({1: torch.export.Dim("tokens", min=2, max=64)},),
        constructs=("if->cond",),
    ),
    Case(
        "branch_invalid_at_other_sizes",
        seeded(PadShort),
        (torch.randint(1, 9, (2, 7)),),
        [(torch.randint(1, 9, (2, n)),) for n in (1, 3, 4, 12, 13, 40)],
        ({1: torch.export.Dim("tokens", min=1, max=64)},),
        constructs=("if->cond",),
    ),
    Case(
        "reshape_for_a_single_row",
        seeded(OneOrMany),
        (torch.randn(6, 5),),
        [(torch.randn(1, 5),), (torch.randn(2, 5),), (torch.randn(40, 5),)],
        ({0: torch.export.Dim("batch", min=1, max=64)},),
        constructs=("ifexp->cond",),
    ),
    Case(
        "stream_chunks_skip_silence",
        seeded(ChunkedStream),
        (torch.randn(1, 12, 4),),
        [
            (torch.randn(1, 4, 4),),
            (torch.cat([torch.randn(1, 5, 4), torch.zeros(1, 8, 4), torch.randn(1, 3, 4)], 1),),
        ],
        ({1: torch.export.Dim("frames", min=4, max=64)},),
        constructs=("for->while_loop",),
    ),
    Case(
        "unfold_by_a_dynamic_window",
        seeded(LagWindows),
        (torch.sin(torch.arange(24.0)),),
        [(torch.sin(torch.arange(9.0) * 2.1),), (torch.ones(16),), (torch.randn(40),)],
        ({0: torch.export.Dim("n", min=5, max=64)},),
        constructs=("if->cond",),
    ),
]
