"""Smart lock face match: embed a face crop, compare with the enrolled gallery (variable
number of enrolled templates), gate on a texture-based liveness check."""

import torch
from torch import nn
import torch.nn.functional as F


class Liveness(nn.Module):
    """Replay/print attacks are blurry: high-frequency energy is a cheap liveness cue."""

    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.tensor(40.0))
        self.offset = nn.Parameter(torch.tensor(0.08))

    def forward(self, img: torch.Tensor) -> torch.Tensor:
        if img.std() < 0.02:
            return torch.zeros(1)  # lens covered / blank frame
        gray = img.mean(dim=1)
        hf = (gray[:, 1:, :] - gray[:, :-1, :]).abs().mean() + (gray[:, :, 1:] - gray[:, :, :-1]).abs().mean()
        return torch.sigmoid(self.scale * (hf - self.offset)).reshape(1)


class FaceEmbed(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 16, 3, stride=2, padding=1)
        self.c2 = nn.Conv2d(16, 32, 3, stride=2, padding=1)
        self.fc = nn.Linear(32, 64)

    def forward(self, img):
        h = F.relu(self.c2(F.relu(self.c1(img))))
        return F.normalize(self.fc(h.mean(dim=(2, 3))), dim=-1)[0]


class FaceLock(nn.Module):
    def __init__(self, accept: float = 0.6, ask_pin: float = 0.45):
        super().__init__()
        self.embed = FaceEmbed()
        self.live = Liveness()
        self.accept = accept
        self.ask_pin = ask_pin

    def forward(self, img: torch.Tensor, gallery: torch.Tensor):
        e = self.embed(img)
        sims = F.normalize(gallery, dim=-1) @ e
        best = sims.max()
        live = self.live(img)
        if best > self.accept and live.sum() > 0.5:
            decision = torch.ones(1)        # unlock
        elif best > self.ask_pin:
            decision = torch.full((1,), 0.5)  # fall back to PIN
        else:
            decision = torch.zeros(1)       # reject
        return decision, best.reshape(1), live


def model() -> nn.Module:
    torch.manual_seed(0)
    return FaceLock().eval()


def _face(seed, sharp=True):
    g = torch.Generator().manual_seed(seed)
    img = torch.rand(1, 3, 32, 32, generator=g)
    if not sharp:
        img = F.avg_pool2d(img, 5, stride=1, padding=2) * 0.3 + 0.35
    return img


def _gallery(img, n, cos, seed):
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        e = model().embed(img)  # enrolment uses the same embedding network
    gal = torch.randn(n, 64, generator=g)
    gal = gal - (gal @ e)[:, None] * e  # orthogonal to e
    gal = F.normalize(gal, dim=-1)
    if cos is not None:
        gal[0] = cos * e + (1 - cos ** 2) ** 0.5 * gal[0]
    return gal


def example_inputs() -> tuple:
    img = _face(0)
    return img, _gallery(img, 4, 0.95, 0)


def dynamic_shapes():
    return (None, {0: torch.export.Dim("enrolled", min=2, max=16)})


def verify_inputs() -> list:
    sharp, blurry = _face(1), _face(2, sharp=False)
    blank = torch.full((1, 3, 32, 32), 0.5)
    return [
        (blurry, _gallery(blurry, 3, 0.97, 1)),   # matches but fails liveness -> PIN
        (sharp, _gallery(sharp, 8, 0.52, 2)),     # weak match -> PIN
        (sharp, _gallery(sharp, 16, None, 3)),    # stranger -> reject
        (blank, _gallery(blank, 2, None, 4)),     # covered lens
    ]
