"""GridSample on an image whose size is known only at run time, sampled on a fixed grid."""

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from deploy.runtimes.tflite.emit import emit_tflite
from deploy.runtimes.tflite.session import load
from tests.runtimes.tflite.export_helpers import to_onnx


class PolarUnwrap(torch.nn.Module):
    """Samples any image on a fixed polar grid (16 angles x 5 radii), as an iris unwrap does."""

    def __init__(self, align_corners: bool, padding_mode: str):
        super().__init__()
        self.align_corners, self.padding_mode = align_corners, padding_mode
        theta = torch.linspace(0, 2 * torch.pi, 16)
        radius = torch.linspace(0.2, 1.1, 5)  # the outer ring leaves the image: padding matters
        grid = torch.stack([radius[:, None] * torch.cos(theta), radius[:, None] * torch.sin(theta)], -1)
        self.register_buffer("grid", grid[None])

    def forward(self, img):
        return F.grid_sample(
            img, self.grid, mode="bilinear", padding_mode=self.padding_mode, align_corners=self.align_corners
        )


@pytest.mark.parametrize("align_corners", [True, False])
@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
def test_grid_sample_of_a_dynamically_sized_image(tmp_path, align_corners, padding_mode):
    model = PolarUnwrap(align_corners, padding_mode).eval()
    h, w = torch.export.Dim("h", min=4, max=64), torch.export.Dim("w", min=4, max=64)
    proto = to_onnx(model, (torch.rand(1, 2, 12, 20),), ({2: h, 3: w},))
    session = load(emit_tflite(proto, tmp_path / "g.tflite")["path"])
    for size in ((12, 20), (5, 37), (64, 4)):
        img = torch.rand(1, 2, *size)
        np.testing.assert_allclose(session.run([img.numpy()])[0], model(img).numpy(), rtol=1e-5, atol=1e-5)
