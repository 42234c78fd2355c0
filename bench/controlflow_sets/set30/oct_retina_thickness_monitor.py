"""Retinal thickness monitor for OCT B-scans (kind T).

A B-scan (1, 1, H, W) is segmented into retina / background with a small residual CNN
(the residual keeps the bright retinal band), the thickness profile per A-scan column is
measured in micrometres, and the central subfield thickness (CST) is computed by a
submodule that uses the central third of the scan for wide scans and the whole scan for
narrow ones.  The CST is graded as edema / normal / thinning (referral logic).

constructs: 1 (if/elif/else on tensor), 2 (return inside branch; same variable in all
            branches), 7 (control flow inside a submodule forward and a helper), 8 (branch on W)
"""
import torch
import torch.nn as nn


class CentralSubfield(nn.Module):
    def __init__(self, wide_scan=96):
        super().__init__()
        self.wide_scan = wide_scan

    def forward(self, thickness):
        w = thickness.shape[-1]
        if w >= self.wide_scan:
            centre = thickness[..., w // 3: 2 * w // 3]
        else:
            centre = thickness
        return centre.mean(dim=-1)


def grade(cst_um, edema_um, thin_um):
    if cst_um > edema_um:
        return torch.tensor(2)
    elif cst_um < thin_um:
        return torch.tensor(0)
    return torch.tensor(1)


class RetinaThicknessMonitor(nn.Module):
    def __init__(self, um_per_px=7.0, edema_um=320.0, thin_um=200.0):
        super().__init__()
        self.seg = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 3, padding=1))
        self.subfield = CentralSubfield()
        self.um_per_px = um_per_px
        self.edema_um = edema_um
        self.thin_um = thin_um

    def forward(self, bscan):
        refined = bscan + 0.05 * torch.tanh(self.seg(bscan))
        retina = (refined > 0.5).float()
        thickness = retina.sum(dim=2).squeeze(1) * self.um_per_px   # (1, W)
        cst = self.subfield(thickness).squeeze(0)
        status = grade(cst, self.edema_um, self.thin_um)
        return thickness, status


def model():
    torch.manual_seed(306)
    return RetinaThicknessMonitor().eval()


def _scan(width, top, bottom, seed, centre_top=None, centre_bottom=None):
    """Bright retinal band between rows [top, bottom); optionally different in the centre."""
    g = torch.Generator().manual_seed(seed)
    img = 0.1 + 0.05 * torch.rand(1, 1, 64, width, generator=g)
    img[..., top:bottom, :] = 0.9 - 0.05 * torch.rand(1, 1, bottom - top, width, generator=g)
    if centre_top is not None:
        c0, c1 = width // 3, 2 * width // 3
        img[..., :, c0:c1] = 0.1 + 0.05 * torch.rand(1, 1, 64, c1 - c0, generator=g)
        img[..., centre_top:centre_bottom, c0:c1] = 0.85
    return (img,)


def example_inputs():
    return _scan(128, 20, 56, 0)   # 36 px * 7 um = 252 um


def dynamic_shapes():
    return ({3: torch.export.Dim("ascans", min=32, max=512)},)


def verify_inputs():
    return [
        example_inputs(),                          # wide scan (centre third); CST 252 um -> normal
        _scan(64, 20, 40, 1),                      # narrow scan (whole width); 140 um -> thinning
        _scan(200, 20, 46, 2, centre_top=8, centre_bottom=60),   # wide, thick centre (364 um) -> edema
        _scan(48, 10, 60, 3),                      # narrow, 350 um everywhere -> edema
        _scan(96, 20, 50, 4, centre_top=25, centre_bottom=45),   # exactly 96 wide (>=): centre 140 um -> thinning
    ]
