"""CT display windowing with per-slice window selection.

Every axial slice (intensities in HU / 1000) gets a display window chosen from its content:
bone window when dense structures are present, lung window for air-dominated slices, soft
tissue otherwise.  Thick stacks are previewed on every other slice.  A small conv encoder
produces a per-slice embedding of the windowed image.
"""
import torch
from torch import nn

BONE, LUNG, SOFT = 0, 1, 2


def choose_window(slice_hu, bone_level=0.7, air_level=-0.3):
    if slice_hu.amax() > bone_level:
        return BONE
    elif slice_hu.mean() < air_level:
        return LUNG
    return SOFT


class CTSliceWindowLeveler(nn.Module):
    def __init__(self, max_preview=16):
        super().__init__()
        self.max_preview = max_preview
        # (center, width) in HU / 1000
        self.windows = [("bone", (0.4, 1.8)), ("lung", (-0.6, 1.5)), ("soft", (0.04, 0.4))]
        self.encoder = nn.Sequential(
            nn.Conv2d(1, 4, 3, stride=2, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten()
        )

    def forward(self, volume):
        # volume: [D, H, W]
        params = []
        for name, (center, width) in self.windows:
            params.append(torch.tensor([center, width]))
        params = torch.stack(params)
        if self.training:
            volume = volume + 0.01 * torch.randn_like(volume)

        step = 2 if volume.shape[0] > self.max_preview else 1
        shown = []
        kinds = []
        for d in range(0, volume.shape[0], step):
            s = volume[d]
            k = choose_window(s)
            center, width = params[k, 0], params[k, 1]
            shown.append(torch.clamp((s - center) / width + 0.5, 0.0, 1.0))
            kinds.append(k)
        shown = torch.stack(shown)
        emb = self.encoder(shown[:, None])
        return shown, emb, torch.tensor(kinds)


def model():
    torch.manual_seed(0)
    return CTSliceWindowLeveler().eval()


def _make(kinds, hw, seed):
    g = torch.Generator().manual_seed(seed)
    slices = []
    for k in kinds:
        base = 0.04 + 0.1 * torch.rand(hw, hw, generator=g)        # soft tissue
        if k == "bone":
            base[2:5, 2:5] = 0.9 + 0.3 * torch.rand(3, 3, generator=g)
        elif k == "lung":
            base = -0.8 + 0.2 * torch.rand(hw, hw, generator=g)
        slices.append(base)
    return (torch.stack(slices),)


def example_inputs():
    return _make(["soft", "bone", "lung", "soft"], 12, 0)


def dynamic_shapes():
    return ({0: torch.export.Dim("depth", min=2, max=40), 1: torch.export.Dim("h", min=8, max=64),
             2: torch.export.Dim("w", min=8, max=64)},)


def verify_inputs():
    return [
        _make(["bone", "soft", "lung"], 16, 1),
        _make(["lung"] * 6 + ["soft"] * 6 + ["bone"] * 8, 10, 2),   # thick stack -> every other slice
        _make(["soft", "soft"], 8, 3),
        example_inputs(),
    ]
