"""HDR-to-display tone mapping for a camera pipeline (Reinhard + local contrast).

Kind T. Constructs: 1, 2, 7, 8, 9.
Linear HDR radiance (3, H, W) is mapped to an sRGB-ish display image.
Frames that are already display-referred only get gamma.  Otherwise the
photographic (Reinhard) operator is applied around the log-average
luminance, with a burn-out white point; small frames compute the
local-contrast base layer at full resolution while large frames do it at
quarter resolution.  A learned 3x3 conv adds a little detail back.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class HDRToneMapper(nn.Module):
    def __init__(self, key=0.18, local_contrast=True, max_white=16.0):
        super().__init__()
        self.key = key
        self.local_contrast = local_contrast
        self.max_white = max_white
        self.detail = nn.Conv2d(3, 3, 3, padding=1)
        self.register_buffer("rgb_to_y", torch.tensor([0.2126, 0.7152, 0.0722]))

    def base_layer(self, lum):
        h, w = lum.shape
        x = lum[None, None]
        if min(h, w) >= 64:
            small = F.avg_pool2d(x, 4)
            small = F.avg_pool2d(small, 3, stride=1, padding=1, count_include_pad=False)
            base = F.interpolate(small, size=(h, w), mode="bilinear", align_corners=False)
        else:
            base = F.avg_pool2d(x, 5, stride=1, padding=2, count_include_pad=False)
        return base[0, 0]

    def forward(self, hdr):
        lum = torch.einsum("c,chw->hw", self.rgb_to_y, hdr)
        if lum.max() <= 1.0:
            # already display-referred (e.g. an SDR frame in the stream)
            return hdr.clamp(0.0, 1.0) ** (1 / 2.2)

        log_avg = torch.exp(torch.log(lum + 1e-6).mean())
        scaled = self.key / log_avg * lum
        white = scaled.max()
        if white > self.max_white:
            white = white.new_tensor(self.max_white)  # let specular highlights burn out
        mapped = scaled * (1 + scaled / white ** 2) / (1 + scaled)

        if self.local_contrast:
            base = self.base_layer(mapped)
            detail = (mapped / (base + 1e-4)).clamp(0.5, 2.0)
            mapped = base * detail ** 1.2

        out = hdr * (mapped / (lum + 1e-6))[None]
        out = out + 0.05 * torch.tanh(self.detail(out[None])[0])
        return out.clamp(0.0, 1.0) ** (1 / 2.2)


def model():
    torch.manual_seed(3205)
    return HDRToneMapper().eval()


def _scene(seed, h, w, exposure, sun=0.0):
    g = torch.Generator().manual_seed(seed)
    yy = torch.linspace(0, 1, h)[:, None]
    xx = torch.linspace(0, 1, w)[None, :]
    base = 0.3 + 0.7 * torch.sin(3 * xx + 2 * yy) ** 2
    img = base[None] * torch.tensor([1.0, 0.9, 0.7])[:, None, None]
    img = img * (1 + 0.1 * torch.rand(3, h, w, generator=g)) * exposure
    if sun:
        img[:, : h // 4, : w // 4] += sun
    return (img,)


def example_inputs():
    # 48x80 HDR frame, bright but no burned-out highlights: full-res base layer
    return _scene(1, 48, 80, 6.0)


def dynamic_shapes():
    h = torch.export.Dim("height", min=8, max=256)
    w = torch.export.Dim("width", min=8, max=256)
    return ({1: h, 2: w},)


def verify_inputs():
    return [
        example_inputs(),              # tone map, white <= max_white, small-frame base layer
        _scene(2, 32, 32, 0.5),        # SDR frame (max lum <= 1): early return with gamma only
        _scene(3, 96, 128, 4.0),       # large frame: quarter-resolution base layer
        _scene(4, 40, 24, 3.0, 400.0), # sun in the corner: white point clamped to max_white
        _scene(5, 72, 64, 2.0, 300.0), # large frame and clamped white point
        _scene(6, 8, 8, 10.0),         # tiny frame at the lower size limit
    ]
