"""Herbarium sheet classifier (digitised plant specimens).

Sheets are scanned at very different resolutions and sometimes in landscape. The model
rotates landscape scans, pools huge scans down, runs a small CNN (optionally with flip
test-time augmentation) and predicts the species. When the species prediction is not
confident enough it falls back to the genus head and reports no species.

Kind: T.  Constructs: 1, 2, 7, 8, 9.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


def fit_to_max_side(img, max_side):
    h, w = img.shape[-2], img.shape[-1]
    if h > max_side or w > max_side:
        factor = math.ceil(max(h, w) / max_side)
        img = F.avg_pool2d(img, factor, ceil_mode=True)
    return img


class HerbariumClassifier(nn.Module):
    def __init__(self, n_species=12, n_genera=5, max_side=128, use_tta=True, min_conf=0.5):
        super().__init__()
        self.max_side = max_side
        self.use_tta = use_tta
        self.min_conf = min_conf
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
            nn.Conv2d(32, 32, 3, padding=1), nn.ReLU(),
        )
        self.species_head = nn.Linear(32, n_species)
        nn.init.normal_(self.species_head.weight, std=6.0)
        self.genus_head = nn.Linear(32, n_genera)
        species_to_genus = torch.zeros(n_species, n_genera)
        species_to_genus[torch.arange(n_species), torch.arange(n_species) % n_genera] = 1.0
        self.register_buffer("species_to_genus", species_to_genus)

    def embed(self, img):
        f = self.features(img).mean(dim=(-2, -1))
        if self.training:
            f = F.dropout(f, 0.2)
        return f

    def forward(self, image):
        # image: (1, 3, H, W), values 0..1
        image = (image - 0.45) / 0.225
        if image.shape[-1] > image.shape[-2]:
            # landscape scan: rotate to portrait
            image = image.transpose(-1, -2).flip(-1)
        image = fit_to_max_side(image, self.max_side)
        feats = self.embed(image)
        if self.use_tta:
            feats = 0.5 * (feats + self.embed(image.flip(-1)))
        species = torch.softmax(self.species_head(feats), dim=-1)
        if species.max() > self.min_conf:
            genus = species @ self.species_to_genus
        else:
            genus = torch.softmax(self.genus_head(feats), dim=-1)
            species = torch.zeros_like(species)
        return species, genus


def model():
    torch.manual_seed(8)
    return HerbariumClassifier().eval()


def _sheet(h, w, seed, color, size):
    """Paper with a mounted specimen: an ellipse of plant material covering `size` of the sheet."""
    g = torch.Generator().manual_seed(seed)
    paper = 0.85 + 0.05 * torch.rand(1, 3, h, w, generator=g)
    yy = torch.linspace(-1, 1, h).view(1, 1, h, 1)
    xx = torch.linspace(-1, 1, w).view(1, 1, 1, w)
    inside = ((xx / size) ** 2 + (yy / size) ** 2 < 1.0).float()
    tissue = torch.tensor(color).view(1, 3, 1, 1) + 0.05 * torch.rand(1, 3, h, w, generator=g)
    return paper * (1 - inside) + tissue * inside


_MOSS = [0.1, 0.25, 0.1]
_DRIED = [0.45, 0.35, 0.2]
_WHITE_FLOWERS = [0.95, 0.95, 0.9]


def example_inputs():
    return (_sheet(96, 64, 0, _MOSS, 1.4),)


def dynamic_shapes():
    return ({2: Dim("height", min=16, max=1024), 3: Dim("width", min=16, max=1024)},)


def verify_inputs():
    return [
        # portrait, small: no rotation, no pooling, confident species
        example_inputs(),
        # landscape scan: rotated, confident species
        (_sheet(64, 200, 1, _MOSS, 1.4),),
        # large portrait scan: pooled down, confident
        (_sheet(300, 200, 2, _WHITE_FLOWERS, 0.9),),
        # dried brown specimen: low confidence -> genus fallback
        (_sheet(96, 64, 3, _DRIED, 1.4),),
        # huge landscape scan of a dried specimen: rotated + pooled + genus fallback
        (_sheet(260, 700, 4, _DRIED, 0.9),),
    ]
