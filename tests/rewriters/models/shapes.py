"""Branches on dynamic sizes: a cond on the symbolic size, never a silent specialisation."""

import torch
import torch.nn.functional as F
from torch import nn

from tests.rewriters.models.case import Case, seeded

SEQ = torch.export.Dim("seq", min=2, max=64)
IMG = torch.export.Dim("img", min=4, max=48)


class LengthAdaptive(nn.Module):
    def forward(self, x):
        if x.shape[1] > 16:
            # long inputs: centre each row
            y = x - x.mean(dim=1, keepdim=True)
        else:
            y = x * 2 + 1
        return y


class ShortOrLong(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        h = self.fc(x)
        pooled = h.mean(dim=1) if x.shape[1] >= 8 else h.max(dim=1).values
        return pooled


class PoolWhenLarge(nn.Module):
    """A branch on a dynamic size whose branches leave different sizes (pooling only large images)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 6, 3, padding=1)
        self.fc = nn.Linear(6, 3)

    def forward(self, x):
        x = torch.relu(self.conv(x))
        if x.shape[2] > 16:
            x = nn.functional.max_pool2d(x, 2)
        else:
            x = x - 0.5
        return self.fc(x.mean(dim=(2, 3))), x.shape[2] * torch.ones(1)


class TruncateLong(nn.Module):
    """Long sequences are cut to a window; the model returns the differently-sized tensor itself."""

    def forward(self, x):
        if x.shape[1] > 12:
            x = x[:, -12:] * 2
        return x + 1


class PoolByLength(nn.Module):
    """if/elif/else on a dynamic size whose branches pool by different factors; then an if/elif on
    the size the first chain left (conds nested in a resizing branch)."""

    def forward(self, x):
        if x.shape[-1] > 64:
            x = nn.functional.avg_pool1d(x, 4)
        elif x.shape[-1] > 16:
            x = nn.functional.avg_pool1d(x, 2)
        else:
            x = x * 1.0
        if x.shape[-1] > 20:
            x = x[..., :20]
        elif x.shape[-1] < 6:
            x = torch.cat([x, x], dim=-1)
        return x.relu() + x.shape[-1]


class PrefilterThenRerank(nn.Module):
    """A top-k prefilter on a size cuts three values at once; a tensor `if` then rescores one of them
    and a loop over k mixes them again: every cut value keeps one shared size (no new sizes torch
    cannot relate)."""

    def __init__(self):
        super().__init__()
        self.tower = nn.Linear(4, 4)
        self.rerank = nn.Linear(5, 1)

    def forward(self, items, seen):
        v = self.tower(items)
        score = v.sum(-1)
        idx = torch.arange(items.shape[0])
        if items.shape[0] > 6:
            score, top = score.topk(6)
            idx, v = idx[top], v[top]
        if not seen.all():
            score = score + self.rerank(torch.cat([v, score.unsqueeze(1)], 1)).squeeze(1)
        k = 3 if v.shape[0] >= 3 else v.shape[0]
        taken = torch.zeros_like(score)
        chosen = []
        for _ in range(k):
            j = (score - taken * 1e3).argmax()
            chosen.append(idx[j])
            taken = torch.maximum(taken, (v @ v[j] > 0).float())
        return torch.stack(chosen)


def _items(n: int, seen: float, seed: int) -> tuple:
    g = torch.Generator().manual_seed(seed)
    return torch.randn(n, 4, generator=g), (torch.rand(n, generator=g) < seen).to(torch.uint8)


class PoolLargeImages(nn.Module):
    """The size test is computed into a variable first (`big = h * w > 16 * 16`), then branched on;
    the pooled branch's strides differ symbolically from the other's."""

    def forward(self, x):
        h, w = x.shape[2], x.shape[3]
        big = h * w > 16 * 16
        if big:
            x = torch.nn.functional.avg_pool2d(x, 2)
        return x.mean(dim=(2, 3)), x.amax(dim=(2, 3))


class CoordinatesAfterPooling(nn.Module):
    """`torch.linspace` over a size a branch changed (an unbacked size after the cond)."""

    def forward(self, depth):
        if depth.shape[2] >= 16 and depth.shape[3] >= 16:
            depth = torch.nn.functional.avg_pool2d(depth, 2)
        h, w = depth.shape[2], depth.shape[3]
        v = torch.linspace(-1.0, 1.0, h).reshape(1, 1, h, 1)
        u = torch.linspace(0.0, 2.0, w).reshape(1, 1, 1, w)
        return (depth * v + u).sum(dim=(2, 3))


class BandEnergies(nn.Module):
    """Band edges `int(lo * n)` of a size a branch changed (a float times an unbacked size)."""

    def forward(self, spec):
        if spec.shape[1] > 32:
            spec = torch.nn.functional.avg_pool1d(spec.unsqueeze(0), 2).squeeze(0)
        n = spec.shape[1]
        bands = [
            spec[:, int(lo * n) : int(hi * n)].pow(2).mean(dim=1) for lo, hi in ((0.0, 0.25), (0.25, 1.0))
        ]
        return torch.stack(bands, dim=1)


def _row_centroids(v):
    """A helper without control flow whose linspace spans a dynamic width."""
    xs = torch.linspace(-1.0, 1.0, v.shape[1])
    return (v * xs).sum(1) / (v.abs().sum(1) + 1.0)


class CentroidsAndOneHot(nn.Module):
    """``torch.linspace`` over a dynamic size in a helper, ``F.one_hot`` over a dynamic class count."""

    def forward(self, v):
        cx = _row_centroids(v)
        k = torch.argmax(cx)
        return cx + torch.nn.functional.one_hot(k, v.shape[0]).float()


class TruncatedTokens(nn.Module):
    """Tokens cut to 16 (`if L > 16: t = t[:, :16]`), embedded and convolved: the cut is a gather,
    so no later op asks whether a view of it is contiguous (``L == Min(16, L)``) at the example."""

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(20, 8)
        self.conv = nn.Conv1d(8, 4, 3, padding=1)

    def forward(self, tokens):
        if tokens.shape[1] > 16:
            tokens = tokens[:, :16]
        x = self.emb(tokens).transpose(1, 2)
        return self.conv(x).mean(-1)


class TernaryCut(nn.Module):
    """The ternary form of a cut (``x = codes[:32] if codes.shape[0] > 32 else codes``) with an
    example shorter than the cut: tracing at the example must not decide the cut away."""

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(128, 8)
        self.conv = nn.Conv1d(8, 4, 5)

    def forward(self, codes):
        x = codes[:32] if codes.shape[0] > 32 else codes
        if x.shape[0] < 5:
            x = torch.nn.functional.pad(x, (0, 5 - x.shape[0]))
        return torch.relu(self.conv(self.emb(x).t().unsqueeze(0))).amax(dim=2)


class LevelChunks(nn.Module):
    """Pads to whole chunks of 8 under a branch on the length (the branches leave rows of different
    sizes: unbacked after the cond), then levels each chunk, quiet ones left as they are (`continue`);
    two lists appended per chunk (a podcast loudness leveller)."""

    def forward(self, x):
        n = x.shape[0]
        if n > 8:
            rem = n % 8
            if rem != 0:
                x = torch.nn.functional.pad(x, (0, 8 - rem))
            rows = x.reshape(-1, 8)
        else:
            rows = x[None]
        out, gains = [], []
        for r in range(rows.shape[0]):
            seg = rows[r]
            level = seg.abs().mean()
            if level < 0.1:
                out.append(seg)
                gains.append(torch.ones(()))
                continue
            gain = (0.5 / level).clamp(max=4.0)
            out.append(seg * gain)
            gains.append(gain)
        return torch.cat(out)[:n], torch.stack(gains)


def _chunks(levels: list[float], n: int, seed: int) -> tuple:
    g = torch.Generator().manual_seed(seed)
    scale = torch.tensor(levels).repeat_interleave(8)[:n]
    return (torch.randn(n, generator=g) * scale,)


class PadToWholeTiles(nn.Module):
    """Large maps downscaled, then padded to whole 8x8 tiles when a side is not a multiple of 8:
    `if pad_h or pad_w` / `if not pad_h` test sizes (unbacked after the downscale branch)."""

    def forward(self, x):
        if x.shape[1] > 24:
            x = F.avg_pool2d(x, 2)
        pad_h = (-x.shape[1]) % 8
        pad_w = (-x.shape[2]) % 8
        if pad_h or pad_w:
            x = F.pad(x, (0, pad_w, 0, pad_h))
        tiles = x.reshape(x.shape[0], x.shape[1] // 8, 8, x.shape[2] // 8, 8).mean((2, 4))
        if not pad_h:
            tiles = tiles * 2
        return tiles


CASES = [
    Case(
        "float_times_a_size_as_slice_bounds",
        seeded(BandEnergies),
        (torch.rand(3, 20),),
        [(torch.rand(3, 40),), (torch.rand(3, 33),), (torch.rand(3, 8),)],
        ({1: SEQ},),
        constructs=("if->cond",),
    ),
    Case(
        "linspace_over_a_size_a_branch_changed",
        seeded(CoordinatesAfterPooling),
        (torch.rand(1, 1, 20, 24),),
        [(torch.rand(1, 1, 8, 30),), (torch.rand(1, 1, 33, 17),), (torch.rand(1, 1, 5, 4),)],
        ({2: IMG, 3: torch.export.Dim("img_w", min=4, max=48)},),
        constructs=("if->cond",),
    ),
    Case(
        "size_test_assigned_before_the_if",
        seeded(PoolLargeImages),
        (torch.randn(1, 2, 12, 12),),
        [(torch.randn(1, 2, 20, 20),), (torch.randn(1, 2, 16, 17),), (torch.randn(1, 2, 6, 40),)],
        ({2: IMG, 3: torch.export.Dim("img_w", min=4, max=48)},),
        constructs=("if->cond",),
    ),
    Case(
        "size_cut_values_keep_one_size",
        seeded(PrefilterThenRerank),
        _items(5, 0.3, 1),
        [_items(20, 0.3, 2), _items(2, 2.0, 3), _items(11, 2.0, 4), _items(4, 0.0, 5)],
        ({0: torch.export.Dim("n_items", min=2, max=64)}, {0: torch.export.Dim("n_items", min=2, max=64)}),
        constructs=("if->cond", "for->while_loop"),
    ),
    Case(
        "shape_branch_dynamic",
        seeded(LengthAdaptive),
        (torch.randn(2, 10),),
        [(torch.randn(2, 4),), (torch.randn(2, 20),), (torch.randn(2, 16),), (torch.randn(2, 17),)],
        ({1: SEQ},),
        constructs=("if->cond",),
    ),
    Case(
        "shape_ternary_dynamic",
        seeded(ShortOrLong),
        (torch.randn(2, 10, 4),),
        [(torch.randn(2, 3, 4),), (torch.randn(2, 8, 4),), (torch.randn(2, 30, 4),)],
        ({1: SEQ},),
        constructs=("ifexp->cond",),
    ),
    Case(
        "shape_branch_resizes_pool",
        seeded(PoolWhenLarge),
        (torch.randn(2, 3, 12, 12),),
        [(torch.randn(1, 3, 4, 4),), (torch.randn(1, 3, 17, 17),), (torch.randn(2, 3, 40, 40),)],
        ({0: torch.export.Dim("n", min=1, max=4), 2: IMG, 3: IMG},),
        constructs=("if->cond",),
    ),
    Case(
        "shape_branch_resizes_output",
        seeded(TruncateLong),
        (torch.randn(2, 10, 3),),
        [
            (torch.randn(2, 2, 3),),
            (torch.randn(2, 12, 3),),
            (torch.randn(2, 13, 3),),
            (torch.randn(2, 64, 3),),
        ],
        ({1: SEQ},),
        constructs=("if->cond",),
    ),
    Case(
        "shape_elif_chains_resize",
        seeded(PoolByLength),
        (torch.randn(2, 3, 40),),
        [(torch.randn(2, 3, n),) for n in (4, 5, 12, 16, 17, 30, 64, 65, 100, 200)],
        ({2: torch.export.Dim("L", min=4, max=256)},),
        constructs=("if->cond",),
    ),
    Case(
        "linspace_in_helper_and_one_hot_over_dynamic_sizes",
        seeded(CentroidsAndOneHot),
        (torch.rand(6, 12),),
        [(torch.rand(2, 5),), (torch.rand(30, 40),)],
        ({0: torch.export.Dim("rows", min=2, max=32), 1: IMG},),
    ),
    Case(
        "truncated_tokens_embedded_and_convolved",
        seeded(TruncatedTokens),
        (torch.randint(0, 20, (2, 24)),),
        [(torch.randint(0, 20, (2, 3)),), (torch.randint(0, 20, (2, 16)),), (torch.randint(0, 20, (2, 90)),)],
        ({1: torch.export.Dim("len", min=2, max=128)},),
    ),
    Case(
        "a_ternary_cut_with_an_example_shorter_than_the_cut",
        seeded(TernaryCut),
        (torch.randint(0, 128, (12,)),),
        [(torch.randint(0, 128, (n,)),) for n in (3, 5, 32, 33, 90, 200)],
        ({0: torch.export.Dim("chars", min=2, max=256)},),
    ),
    Case(
        "loop_over_rows_of_a_resized_size_branch",
        seeded(LevelChunks),
        _chunks([1.0, 0.01, 0.3], 20, 1),
        [_chunks([0.5], 5, 2), _chunks([0.01, 2.0], 16, 3), _chunks([0.2, 0.01, 0.05, 1.0, 0.4], 33, 4)],
        ({0: torch.export.Dim("samples", min=2, max=64)},),
        constructs=("if->cond", "for->while_loop"),
    ),
    Case(
        "sizes_as_truth_values_after_a_resizing_branch",
        seeded(PadToWholeTiles),
        (torch.rand(1, 20, 12),),
        [
            (torch.rand(1, 16, 16),),
            (torch.rand(1, 40, 30),),
            (torch.rand(1, 48, 50),),
            (torch.rand(1, 7, 8),),
        ],
        ({1: torch.export.Dim("h", min=2, max=64), 2: torch.export.Dim("w", min=2, max=64)},),
        constructs=("if->cond",),
    ),
]
