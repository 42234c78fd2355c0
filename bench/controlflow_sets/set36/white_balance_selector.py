"""Camera ISP auto white balance: picks gray-world or white-patch gains from frame stats.

Kind T. Constructs: 1, 2, 3, 7, 8, 9.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class AutoWhiteBalance(nn.Module):
    def __init__(self, method="auto", stats_budget=64 * 64, max_gain=4.0):
        super().__init__()
        self.method = method
        self.stats_budget = stats_budget
        self.max_gain = max_gain
        # small learned colour-correction residual applied after the gains
        self.ccm = nn.Conv2d(3, 3, kernel_size=1)

    def _stats_view(self, img):
        # big frames are averaged down 2x before computing statistics (cheaper, less noise)
        h, w = img.shape[-2], img.shape[-1]
        if h * w > self.stats_budget:
            return F.avg_pool2d(img.unsqueeze(0), 2).squeeze(0)
        return img

    def forward(self, img):
        if self.method == "off":  # static
            return img
        stats = self._stats_view(img)
        means = stats.mean(dim=(1, 2))
        peaks = stats.amax(dim=(1, 2))
        clipped = (stats > 0.98).float().mean()

        if means.min() < 1e-3:
            # lens cap on / black frame: nothing to estimate
            return img.clamp(0, 1)

        cast = means.max() / means.min()
        if cast < 1.05:
            gains = torch.ones_like(means)
        elif clipped > 0.2 or peaks.min() < 0.5:
            # highlights are blown or scene is dim: white patch is unreliable -> gray world
            gains = means.mean() / means
        else:
            gains = peaks.max() / peaks
        gains = gains.clamp(max=self.max_gain)

        out = img * gains[:, None, None]
        out = out + 0.05 * self.ccm(out.unsqueeze(0)).squeeze(0)
        return out.clamp(0, 1)


def model():
    torch.manual_seed(36001)
    return AutoWhiteBalance().eval()


def _frame(seed, h, w, tint, scale=1.0):
    g = torch.Generator().manual_seed(seed)
    img = torch.rand(3, h, w, generator=g) * scale
    return (img * torch.tensor(tint)[:, None, None]).clamp(0, 1)


def example_inputs():
    # 96x96 > budget -> downsampled stats; warm cast, bright highlights -> white patch
    return (_frame(1, 96, 96, [1.0, 0.8, 0.6]),)


def dynamic_shapes():
    h = torch.export.Dim("h", min=8, max=256)
    w = torch.export.Dim("w", min=8, max=256)
    return ({1: h, 2: w},)


def verify_inputs():
    g = torch.Generator().manual_seed(7)
    gray = (0.2 + 0.6 * torch.rand(1, 20, 28, generator=g)).expand(3, 20, 28).contiguous()
    return [
        example_inputs(),                                   # large frame, white-patch gains
        (_frame(2, 16, 24, [1.0, 0.9, 0.7]),),              # small frame (no downsample), white patch
        (_frame(3, 12, 12, [1.0, 1.0, 1.0], scale=5e-4),),  # black frame -> early return
        (gray,),                                            # neutral frame -> unit gains
        (_frame(4, 24, 20, [2.0, 1.5, 1.0]),),              # many clipped pixels -> gray world (1st `or` operand)
        (_frame(5, 40, 30, [0.4, 0.3, 0.25]),),             # dim scene -> gray world (2nd `or` operand)
    ]
