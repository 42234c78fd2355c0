"""Colonoscopy computer-aided detection: per-frame polyp detector + track state machine.

Each video frame gets a polyp score and location (colour-contrast prior plus
a small CNN correction, soft-argmax for the centre). Motion-blurred frames
(low Laplacian variance) are skipped. A track state machine
(SEARCH -> TENTATIVE -> CONFIRMED -> LOST) only raises an alert for a polyp
after three consecutive detections, tolerates short drop-outs, and treats a
detection far from the tracked position as a different polyp.

Outputs: per-frame state (-1 for skipped frames), number of confirmed polyps,
per-frame detector score.

Constructs: 1, 2, 3, 5, 6, 7, 9
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim

SEARCH, TENTATIVE, CONFIRMED, LOST = 0, 1, 2, 3


class PolypTracker(nn.Module):
    def __init__(self):
        super().__init__()
        self.cnn = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                                 nn.Flatten(), nn.Linear(8, 1))
        self.confirm_hits = 3
        self.max_misses = 2
        self.gate = 6.0        # pixels
        self.blur_var = 2e-3
        self.register_buffer("lap", torch.tensor([[0.0, 1.0, 0.0], [1.0, -4.0, 1.0], [0.0, 1.0, 0.0]]).view(1, 1, 3, 3))

    def is_blurry(self, frame):
        gray = frame.mean(0, keepdim=True).unsqueeze(0)
        return F.conv2d(gray, self.lap).var() < self.blur_var

    def detect(self, frames):
        redness = frames[:, 0] - 0.5 * (frames[:, 1] + frames[:, 2])
        local = F.avg_pool2d(redness.unsqueeze(1), 5, stride=1, padding=2).squeeze(1)
        contrast = local - redness.mean(dim=(1, 2), keepdim=True)
        peak = contrast.flatten(1).amax(1)
        score = torch.sigmoid(40.0 * (peak - 0.1) + 0.2 * torch.tanh(self.cnn(frames)).squeeze(1))
        w = torch.softmax(60.0 * contrast.flatten(1), dim=1).view_as(contrast)
        H, W = frames.shape[-2:]
        ys = torch.arange(H, dtype=frames.dtype)
        xs = torch.arange(W, dtype=frames.dtype)
        center = torch.stack([(w.sum(2) * ys).sum(1), (w.sum(1) * xs).sum(1)], dim=1)
        return score, center

    def step(self, state, hits, misses, det, jump):
        if not det:
            if state == TENTATIVE:
                return SEARCH, 0, 0, False
            if state == CONFIRMED:
                misses += 1
                if misses >= self.max_misses:
                    return LOST, 0, misses, False
            return state, hits, misses, False
        if state == CONFIRMED and not jump:
            return CONFIRMED, hits + 1, 0, False
        if state == TENTATIVE and not jump:
            hits += 1
            if hits >= self.confirm_hits:
                return CONFIRMED, hits, 0, True  # alert: new polyp
            return TENTATIVE, hits, 0, False
        return TENTATIVE, 1, 0, False  # first sighting (or a different polyp elsewhere)

    def forward(self, frames):
        score, center = self.detect(frames)
        state, hits, misses = SEARCH, 0, 0
        n_polyps = 0
        last = torch.zeros(2)
        states = []
        for t in range(frames.shape[0]):
            if self.is_blurry(frames[t]):
                states.append(torch.tensor(-1))
                continue
            det = score[t] > 0.5
            jump = (center[t] - last).norm() > self.gate
            state, hits, misses, new = self.step(state, hits, misses, det, jump)
            if new:
                n_polyps += 1
            if det:
                last = center[t]
            states.append(torch.tensor(state))
        return torch.stack(states), torch.tensor(n_polyps), score


def model():
    torch.manual_seed(67)
    return PolypTracker().eval()


def _video(script, seed, size=24):
    """script entries: None (no polyp), (row, col) polyp centre, 'blur' (motion-blurred frame)"""
    g = torch.Generator().manual_seed(seed)
    yy, xx = torch.meshgrid(torch.arange(size, dtype=torch.float32), torch.arange(size, dtype=torch.float32), indexing="ij")
    mucosa = torch.tensor([0.80, 0.45, 0.40]).view(3, 1, 1)
    frames = []
    for item in script:
        f = mucosa + 0.03 * torch.randn(3, size, size, generator=g)
        if item == "blur":
            f = F.avg_pool2d(f.unsqueeze(0), 7, stride=1, padding=3, count_include_pad=False)[0]
            f = F.avg_pool2d(f.unsqueeze(0), 7, stride=1, padding=3, count_include_pad=False)[0]
        elif item is not None:
            r, c = item
            blob = torch.exp(-((yy - r) ** 2 + (xx - c) ** 2) / (2 * 2.5 ** 2))
            f = f + blob * torch.tensor([0.15, -0.15, -0.12]).view(3, 1, 1)
        frames.append(f.clamp(0, 1))
    return (torch.stack(frames),)


def example_inputs():
    # nothing, polyp A seen 3x around a blurred frame (confirmed), A again, two misses (lost), polyp B seen 3x
    # (tentative, tentative, confirmed), then a detection far away (different polyp: back to tentative)
    return _video([None, (8, 8), (9, 8), "blur", (9, 9), (9, 9), None, None, (16, 17), (16, 16), (16, 16), (5, 18)], 1)


def dynamic_shapes():
    return ({0: Dim("frames", min=2, max=32)},)


def verify_inputs():
    return [
        example_inputs(),                                         # SEARCH/TENTATIVE/CONFIRMED/LOST, blur skip, jump
        _video([(12, 12), None, (12, 12), (20, 4), None, "blur", (20, 4)], 2),  # tentative dropped; tentative + jump restarts; single miss while SEARCH
        _video(["blur", "blur", "blur"], 3),                      # every frame skipped (continue each time)
        _video([(6, 6), (6, 7), (7, 7), None, (7, 7), (7, 6)], 4),  # confirmed, one miss (not lost), re-detected near: stays confirmed
    ]
