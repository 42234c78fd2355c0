"""Semiconductor wafer-map triage: yield, scrap decision, rule-based spatial
signatures (centre blob / edge ring) from radial fail rates, and a small CNN for
everything else. Input is the pass/fail map of the dies (1 = failed die).

Kind T; constructs 1, 2, 3, 7, 8, 9."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim

CLASSES = ["none", "center", "edge_ring", "local", "scrap"]


def wafer_radius(H, W, dtype):
    yy = (torch.arange(H, dtype=dtype)[:, None] - (H - 1) / 2) / (H / 2)
    xx = (torch.arange(W, dtype=dtype)[None, :] - (W - 1) / 2) / (W / 2)
    return torch.sqrt(yy ** 2 + xx ** 2)


def radial_fail_rates(fail, edges=(0.0, 0.37, 0.61, 0.79, 0.97)):
    """Fail rate in concentric rings (centre first, edge last)."""
    r = wafer_radius(fail.shape[0], fail.shape[1], fail.dtype)
    rates = []
    for lo, hi in zip(edges[:-1], edges[1:]):
        ring = ((r >= lo) & (r < hi)).to(fail.dtype)
        rates.append((fail * ring).sum() / ring.sum().clamp(min=1.0))
    return torch.stack(rates)


def spatial_signature(rates, yield_):
    """Rule-based signature from the radial fail rates; None when there is no clear one."""
    if rates[-1] > 2 * rates[0] + 0.05:
        return 2                      # edge ring
    if rates[0] > 2 * rates[-1] + 0.05 and yield_ < 0.95:
        return 1                      # centre blob
    return None


class PatternCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(),
            nn.Conv2d(8, 8, 3, stride=2, padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.fc = nn.Linear(8, len(CLASSES))

    def forward(self, img):
        return self.fc(self.features(img))[0]


class WaferMapClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(404)
        self.cnn = PatternCNN()
        self.scrap_yield = 0.3
        self.edge = 0.97

    def forward(self, fail):
        # fail: [H, W] 0/1 map of failed dies (square grid over the wafer)
        on_wafer = (wafer_radius(fail.shape[0], fail.shape[1], fail.dtype) < self.edge).to(fail.dtype)
        fail = fail * on_wafer
        yield_ = 1.0 - fail.sum() / on_wafer.sum()
        if yield_ < self.scrap_yield:
            return F.one_hot(torch.tensor(4), len(CLASSES)).to(fail.dtype), yield_

        if fail.shape[0] > 48 or fail.shape[1] > 48:
            # small dies -> big maps: pool so the CNN sees a similar scale
            img = F.max_pool2d(fail[None, None], 2)
        else:
            img = fail[None, None]
        logits = self.cnn(img)

        label = spatial_signature(radial_fail_rates(fail), yield_)
        if label is None:
            return torch.softmax(logits, dim=-1), yield_   # no clear signature: trust the CNN
        probs = 0.8 * F.one_hot(torch.tensor(label), len(CLASSES)).to(fail.dtype) + 0.2 * torch.softmax(logits, -1)
        return probs, yield_


def model():
    return WaferMapClassifier().eval()


def _wafer(H, W, kind, seed, p=0.05):
    g = torch.Generator().manual_seed(seed)
    r = wafer_radius(H, W, torch.float32)
    base = (torch.rand(H, W, generator=g) < p).float()
    if kind == "edge":
        base = torch.maximum(base, ((r > 0.8) & (torch.rand(H, W, generator=g) < 0.7)).float())
    elif kind == "center":
        base = torch.maximum(base, ((r < 0.3) & (torch.rand(H, W, generator=g) < 0.8)).float())
    elif kind == "scratch":
        idx = torch.arange(min(H, W))
        base[idx, (idx * W) // H] = 1.0
    return base


def example_inputs():
    return (_wafer(32, 32, "edge", 1),)


def dynamic_shapes():
    return ({0: Dim("rows", min=8, max=64), 1: Dim("cols", min=8, max=64)},)


def _small_centre(H, W):
    return (wafer_radius(H, W, torch.float32) < 0.2).float()


def verify_inputs():
    # ring edges are at least 2e-4 away from every die radius for these map sizes
    return [
        example_inputs(),                         # edge ring, no pooling
        (_wafer(24, 30, "center", 2),),           # centre blob with yield < 95% -> centre
        (_wafer(40, 40, "scrap", 3, p=0.8),),     # yield below 30% -> scrap, early return
        (_wafer(64, 64, "scratch", 4),),          # max size (pooled), scratch -> CNN decides
        (torch.zeros(8, 8),),                     # min size, perfect wafer -> CNN decides
        (_small_centre(48, 48),),                 # centre-heavy but yield > 95% -> CNN decides
        (_wafer(16, 56, "center", 6),),           # wide map (cols > 48) pooled, centre blob
        (_wafer(64, 10, "edge", 7),),             # tall map (rows > 48) pooled, edge ring
    ]
