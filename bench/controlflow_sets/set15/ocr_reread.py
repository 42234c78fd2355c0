"""OCR word recogniser with confidence-driven re-reads (document scanner app).

Input: word crops (N, 1, 32, W) in [0, 1], N and W dynamic. A CRNN-style recogniser gives
per-column character logits. Words whose mean confidence is below threshold are re-read with a
progressively stronger contrast stretch, up to `max_tries` times, keeping the best read.
Returns the logits of the best read per word, the confidence, and the number of re-reads.
"""

import torch
import torch.nn.functional as F
from torch import nn

N_CHARS = 37  # blank + 0-9 + a-z
SHARP = 20.0


class Recognizer(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, 3, padding=1)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1)
        self.cls = nn.Linear(32, N_CHARS)
        with torch.no_grad():
            self.cls.weight.mul_(SHARP)

    def forward(self, crop: torch.Tensor) -> torch.Tensor:
        h = F.max_pool2d(torch.relu(self.conv1(crop)), 2)
        h = F.max_pool2d(torch.relu(self.conv2(h)), 2)      # (n, 32, 8, W/4)
        h = h.amax(2).transpose(1, 2)                      # (n, W/4, 32)
        return self.cls(h)


def confidence(logits: torch.Tensor) -> torch.Tensor:
    return logits.softmax(-1).amax(-1).mean()


def enhance(crop: torch.Tensor, attempt: int) -> torch.Tensor:
    """attempt 1: contrast stretch, 2: binarise at the mean, 3: thicken strokes."""
    lo = crop.amin(dim=(-1, -2), keepdim=True)
    hi = crop.amax(dim=(-1, -2), keepdim=True)
    x = (crop - lo) / (hi - lo + 1e-4)
    if attempt == 1:
        return x
    x = (x > x.mean()).float()
    if attempt == 2:
        return x
    return -F.max_pool2d(-x, 3, stride=1, padding=1)


class OcrWithReread(nn.Module):
    def __init__(self, threshold: float = 0.45, max_tries: int = 3):
        super().__init__()
        self.threshold, self.max_tries = threshold, max_tries
        self.rec = Recognizer()

    def forward(self, crops: torch.Tensor):
        if crops.shape[3] % 4 != 0:
            crops = F.pad(crops, (0, 4 - crops.shape[3] % 4), value=1.0)
        best_logits, confs, tries_out = [], [], []
        for i in range(crops.shape[0]):
            crop = crops[i : i + 1]
            logits = self.rec(crop)[0]
            conf = confidence(logits)
            tries = 0
            while conf < self.threshold and tries < self.max_tries:
                tries += 1
                cand = self.rec(enhance(crop, tries))[0]
                c = confidence(cand)
                if c > conf:
                    logits, conf = cand, c
            best_logits.append(logits)
            confs.append(conf)
            tries_out.append(torch.tensor(tries))
        return torch.stack(best_logits), torch.stack(confs), torch.stack(tries_out)


def model() -> nn.Module:
    torch.manual_seed(0)
    return OcrWithReread().eval()


def _words(n, w, contrast, seed):
    g = torch.Generator().manual_seed(seed)
    ink = (torch.rand(n, 1, 32, w, generator=g) > 0.7).float()
    return 0.5 + contrast * (ink - 0.5) + 0.02 * torch.randn(n, 1, 32, w, generator=g)


def example_inputs() -> tuple:
    return (_words(3, 64, 0.8, 1),)


def dynamic_shapes():
    return ({0: torch.export.Dim("words", min=2, max=64), 3: torch.export.Dim("w", min=16, max=512)},)


def verify_inputs() -> list:
    return [
        (_words(2, 50, 0.05, 2),),   # faint scan: re-read
        (_words(4, 96, 0.3, 3),),
        (_words(2, 40, 1.0, 4),),    # crisp scan: first read is confident
    ]
