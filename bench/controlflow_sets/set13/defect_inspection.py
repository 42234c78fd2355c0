"""Factory visual inspection: patch anomaly scoring + defect-type classification of the worst
patches. The number of reported defects (and so every output's length) depends on the data."""

import torch
import torch.nn.functional as F
from torch import nn

DEFECT_TYPES = 4  # scratch, dent, stain, missing part


class PatchScorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.feat = nn.Conv2d(3, 8, 3, padding=1)

    def forward(self, img: torch.Tensor) -> torch.Tensor:
        # deviation from the locally smoothed image = "does not look like the background"
        smooth = F.avg_pool2d(img, 5, stride=1, padding=2, count_include_pad=False)
        resid = (img - smooth).abs().mean(1, keepdim=True)
        texture = torch.relu(self.feat(img)).mean(1, keepdim=True)
        return F.avg_pool2d(resid + 0.01 * texture, 8).squeeze(0).squeeze(0)  # (H/8, W/8)


class DefectClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 16, 3, padding=1)
        self.fc = nn.Linear(16, DEFECT_TYPES)

    def forward(self, patch: torch.Tensor) -> torch.Tensor:
        return self.fc(torch.relu(self.conv(patch)).mean((2, 3))).squeeze(0)


class DefectInspector(nn.Module):
    def __init__(self, max_defects: int = 5, abs_floor: float = 0.05, min_conf: float = 0.52):
        super().__init__()
        self.scorer = PatchScorer()
        self.cls = DefectClassifier()
        self.max_defects = max_defects
        self.abs_floor = abs_floor
        self.min_conf = min_conf
        self.temperature = 0.05  # calibrated on the validation line

    def forward(self, img: torch.Tensor):
        # img: (1, 3, H, W); a partial border patch is ignored by the pooling
        scores = self.scorer(img)
        gw = scores.shape[1]
        flat = scores.flatten()
        thr = torch.maximum(flat.mean() + 3.0 * flat.std(), torch.tensor(self.abs_floor))
        k = int((flat > thr).sum().clamp(max=self.max_defects).item())
        if k == 0:
            return torch.zeros(0, 4, dtype=torch.long), torch.zeros(0, dtype=torch.long), torch.zeros(0)
        vals, idx = torch.topk(flat, k)
        boxes, labels = [], []
        for j in range(k):
            r, c = int(idx[j]) // gw, int(idx[j]) % gw
            patch = img[:, :, r * 8:(r + 1) * 8, c * 8:(c + 1) * 8]
            prob = torch.softmax(self.cls(patch) / self.temperature, 0)
            label = torch.argmax(prob)
            if prob[label] < self.min_conf:
                label = torch.tensor(-1)  # unsure: flag for a human
            boxes.append(torch.tensor([r * 8, c * 8, r * 8 + 8, c * 8 + 8]))
            labels.append(label)
        return torch.stack(boxes), torch.stack(labels), vals


def model() -> nn.Module:
    torch.manual_seed(0)
    return DefectInspector().eval()


def _part(h, w, defects, seed):
    g = torch.Generator().manual_seed(seed)
    yy = torch.linspace(0, 1, h).view(1, 1, h, 1)
    img = 0.5 + 0.1 * yy + 0.002 * torch.rand(1, 3, h, w, generator=g)
    for (r, c, amp) in defects:
        img[:, :, r * 8 + 2: r * 8 + 6, c * 8 + 1: c * 8 + 7] += amp * torch.rand(1, 3, 4, 6, generator=g)
    return img


def example_inputs() -> tuple:
    return (_part(64, 64, [(2, 3, 0.8), (5, 1, 0.5)], 0),)


def dynamic_shapes():
    return ({2: torch.export.Dim("h", min=16, max=256), 3: torch.export.Dim("w", min=16, max=256)},)


def verify_inputs() -> list:
    many = [(r, c, 0.3 + 0.1 * r + 0.02 * c) for r, c in [(0, 0), (1, 4), (2, 7), (3, 2), (4, 5), (5, 0), (6, 6)]]
    return [
        (_part(48, 80, [], 1),),        # good part
        (_part(64, 64, many, 2),),      # many defects: capped at max_defects
        (_part(32, 128, [(1, 10, 1.0)], 3),),
    ]
