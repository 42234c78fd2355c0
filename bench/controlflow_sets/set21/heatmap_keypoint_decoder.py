"""Pose-estimation post-processing: per-keypoint heatmap argmax, visibility threshold, quarter-pixel refinement."""
import torch
from torch import nn
from torch.export import Dim


class KeypointDecoder(nn.Module):
    def __init__(self, vis_thr=0.3):
        super().__init__()
        self.vis_thr = vis_thr
        self.calib = nn.Linear(1, 1)   # learned score calibration

    def _decode_one(self, h):
        H, W = h.shape
        flat = h.reshape(-1)
        idx = int(torch.argmax(flat))
        y, x = idx // W, idx % W
        peak = flat[idx]
        score = torch.sigmoid(self.calib(peak.view(1, 1))).view(())
        if peak < self.vis_thr:
            return torch.stack([torch.tensor(-1.0), torch.tensor(-1.0), score])
        fx, fy = float(x), float(y)
        if x > 0 and x < W - 1:
            fx = fx + (0.25 if h[y, x + 1] > h[y, x - 1] else -0.25)
        if y > 0 and y < H - 1:
            fy = fy + (0.25 if h[y + 1, x] > h[y - 1, x] else -0.25)
        return torch.stack([torch.tensor(fx) / W, torch.tensor(fy) / H, score])

    def forward(self, heatmaps):
        K = heatmaps.shape[0]
        out = []
        for k in range(K):
            out.append(self._decode_one(heatmaps[k]))
        return torch.stack(out)


def model():
    torch.manual_seed(0)
    return KeypointDecoder().eval()


def _maps(K, H, W, seed):
    g = torch.Generator().manual_seed(seed)
    ys = torch.arange(H, dtype=torch.float32).view(H, 1)
    xs = torch.arange(W, dtype=torch.float32).view(1, W)
    maps = []
    for k in range(K):
        cy = int(torch.randint(0, H, (1,), generator=g)) + (0.25 if k % 3 else -0.25)
        cx = int(torch.randint(0, W, (1,), generator=g)) + (0.3 if k % 2 else -0.3)
        if k == 1:
            cy, cx = 0.2, W - 1.2          # keypoints at the image border
        if k == 2:
            cx = 0.2
        amp = 1.5 if k % 4 != 3 else 0.6     # every 4th keypoint occluded (weak peak)
        maps.append(amp * torch.exp(-((ys - cy) ** 2 + (xs - cx) ** 2) / 4.5) - 0.4)
    return torch.stack(maps)


def example_inputs():
    return (_maps(6, 24, 20, 1),)


def verify_inputs():
    return [
        (_maps(17, 32, 32, 2),),
        (_maps(4, 12, 16, 3),),
        (_maps(9, 48, 36, 4),),
    ]


def dynamic_shapes():
    return ({0: Dim("keypoints", min=2, max=32), 1: Dim("h", min=8, max=128), 2: Dim("w", min=8, max=128)},)
