"""MRI slice motion-artifact rejector.

Before feeding a brain MRI stack to a classifier, slices corrupted by patient
motion (ghosting along the phase-encode direction) are dropped. The remaining
slices are encoded by a small CNN and averaged into a study-level prediction.
If too many slices are corrupted the study is flagged for a rescan.
Constructs: 1, 2, 5, 6, 7
"""
import torch
import torch.nn as nn


def ghosting_score(img):
    """Ratio of row-to-row variation (phase-encode ghosting) to signal level."""
    row_diff = (img[1:, :] - img[:-1, :]).abs().mean()
    signal = img.abs().mean()
    if signal < 1e-3:
        # empty slice (outside the head): treat as clean but useless
        return torch.zeros(())
    return row_diff / signal


class SliceEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(),
            nn.Conv2d(8, 16, 3, padding=1, stride=2), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )

    def forward(self, slices):
        return self.conv(slices[:, None])


class MotionRejectingClassifier(nn.Module):
    def __init__(self, max_ghosting=0.5, min_keep_fraction=0.5):
        super().__init__()
        self.max_ghosting = max_ghosting
        self.min_keep_fraction = min_keep_fraction
        self.encoder = SliceEncoder()
        self.cls = nn.Linear(16, 3)

    def forward(self, volume):
        kept = []
        for s in range(volume.shape[0]):
            score = ghosting_score(volume[s])
            if score > self.max_ghosting:
                continue
            kept.append(volume[s])

        if len(kept) == 0:
            # every slice is corrupted: no prediction, rescan flag set
            return torch.zeros(3), torch.ones(())

        good = torch.stack(kept)
        feats = self.encoder(good).mean(dim=0)
        logits = self.cls(feats)
        keep_fraction = good.shape[0] / volume.shape[0]
        rescan = torch.tensor(1.0) if keep_fraction < self.min_keep_fraction else torch.tensor(0.0)
        return torch.softmax(logits, dim=-1), rescan


def model():
    torch.manual_seed(1)
    return MotionRejectingClassifier().eval()


def _clean_slice(seed):
    g = torch.Generator().manual_seed(seed)
    yy, xx = torch.meshgrid(torch.linspace(-1, 1, 16), torch.linspace(-1, 1, 16), indexing="ij")
    head = torch.exp(-(xx ** 2 + yy ** 2) * 2.0)
    return head + 0.01 * torch.rand(16, 16, generator=g)


def _ghosted_slice(seed):
    stripes = (torch.arange(16) % 2).float()[:, None].expand(16, 16)
    return _clean_slice(seed) * (0.2 + stripes)


def example_inputs():
    vol = torch.stack([_clean_slice(i) for i in range(6)] + [_ghosted_slice(10)])
    return (vol,)


def dynamic_shapes():
    return ({0: torch.export.Dim("slices", min=2, max=40)},)


def verify_inputs():
    return [
        example_inputs(),                                                     # 6 clean + 1 ghosted: continue taken once, no rescan
        (torch.stack([_ghosted_slice(1), _ghosted_slice(2), _ghosted_slice(3)]),),  # all rejected -> early return
        (torch.stack([_ghosted_slice(4), _ghosted_slice(5), _clean_slice(6)]),),    # 1 of 3 kept -> rescan flag
        (torch.stack([_clean_slice(7), torch.zeros(16, 16)]),),               # empty slice -> helper early return, kept
    ]
