"""CT slice triage: HU windowing, a cheap lesion gate, and a segmentation head that
only runs when the gate fires. Large slices are segmented at half resolution."""
import torch
from torch import nn
import torch.nn.functional as F

PRESETS = {"soft_tissue": (40.0, 400.0), "lung": (-600.0, 1500.0)}


class LesionTriage(nn.Module):
    def __init__(self, preset="soft_tissue"):
        super().__init__()
        self.preset = preset
        self.feat = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(),
                                  nn.Conv2d(8, 8, 3, padding=1, stride=2), nn.ReLU())
        self.cls = nn.Linear(8, 1)
        self.seg = nn.Sequential(nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 1))

    def window(self, hu):
        if self.preset == "lung":  # static
            level, width = PRESETS["lung"]
        else:
            level, width = PRESETS["soft_tissue"]
        lo = level - width / 2
        return ((hu - lo) / width).clamp(0.0, 1.0)

    def forward(self, hu: torch.Tensor):
        # hu: (1, 1, H, W) Hounsfield units
        H, W = hu.shape[2], hu.shape[3]
        x = self.window(hu)
        big = H * W > 64 * 64
        if big:
            x = F.avg_pool2d(x, 2)
        f = self.feat(x)
        bright_frac = (x > 0.8).float().mean()     # hyperdense fraction
        logit = self.cls(f.mean(dim=(2, 3))) + 40.0 * (bright_frac - 0.03)
        prob = torch.sigmoid(logit).reshape(())
        if prob.item() < 0.5:
            return torch.zeros(1, 1, H, W), prob
        m = torch.sigmoid(self.seg(f))
        m = F.interpolate(m, size=(H, W), mode="bilinear", align_corners=False)
        return m, prob


def model():
    torch.manual_seed(0)
    return LesionTriage().eval()


def example_inputs():
    torch.manual_seed(1)
    return (torch.randn(1, 1, 48, 48) * 60.0 + 30.0,)


def dynamic_shapes():
    return ({2: torch.export.Dim("H", min=16, max=256), 3: torch.export.Dim("W", min=16, max=256)},)


def verify_inputs():
    torch.manual_seed(6)
    small = torch.randn(1, 1, 40, 56) * 60.0 + 30.0
    small[..., 10:25, 20:40] = 230.0          # hyperdense lesion
    large = torch.randn(1, 1, 96, 80) * 60.0 + 30.0
    large[..., 30:60, 30:60] = 240.0
    return [
        (small,),
        (large,),                               # half-resolution path, gate fires
        (torch.randn(1, 1, 128, 96) * 40.0,),   # half-resolution path, gate closed
    ]
