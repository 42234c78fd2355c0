"""Crop-disease leaf classifier for a phone app, with an image-quality gate in front
(too dark / overexposed / blurry photos are rejected) and an 'unknown' class when
the classifier is unsure."""
import torch
from torch import nn
import torch.nn.functional as F

N_CLASSES = 5


class Block(nn.Module):
    def __init__(self, c_in, c_out):
        super().__init__()
        self.conv = nn.Conv2d(c_in, c_out, 3, padding=1)
        self.bn = nn.BatchNorm2d(c_out)

    def forward(self, x):
        return F.max_pool2d(F.relu(self.bn(self.conv(x))), 2)


class LeafClassifier(nn.Module):
    def __init__(self, tta=False):
        super().__init__()
        self.tta = tta
        self.blocks = nn.ModuleList([Block(3, 8), Block(8, 16), Block(16, 16)])
        self.fc = nn.Linear(16 + 3, N_CLASSES)  # CNN features + mean leaf colour
        lap = torch.tensor([[0.0, 1.0, 0.0], [1.0, -4.0, 1.0], [0.0, 1.0, 0.0]])
        self.register_buffer("lap", lap.reshape(1, 1, 3, 3))
        self.min_sharp = 0.002
        self.min_conf = 0.4

    def sharpness(self, img):
        gray = img.mean(dim=1, keepdim=True)
        return F.conv2d(gray, self.lap).var()

    def classify(self, img):
        x = img
        for blk in self.blocks:
            x = blk(x)
        colour = (img.mean(dim=(2, 3)) - 0.5) * 4.0
        return self.fc(torch.cat([x.mean(dim=(2, 3)), colour], dim=1))

    def forward(self, img):
        brightness = img.mean()
        sharp = self.sharpness(img)
        if brightness < 0.15 or brightness > 0.9 or sharp < self.min_sharp:
            # reject: ask the user to retake the photo
            return torch.full((1, N_CLASSES + 1), 1.0 / (N_CLASSES + 1)), torch.tensor(0.0)
        logits = self.classify(img)
        if self.tta:  # static
            logits = 0.5 * (logits + self.classify(torch.flip(img, dims=[3])))
        probs = torch.softmax(logits * 4.0, dim=-1)
        if probs.max() < self.min_conf:
            out = torch.cat([probs * 0.0, torch.ones(1, 1)], dim=1)
        else:
            out = torch.cat([probs, torch.zeros(1, 1)], dim=1)
        return out, torch.tensor(1.0)


def model():
    torch.manual_seed(0)
    m = LeafClassifier()
    for blk in m.blocks:
        blk.bn.running_mean.uniform_(-0.1, 0.1)
        blk.bn.running_var.uniform_(0.5, 1.5)
    return m.eval()


def example_inputs():
    torch.manual_seed(1)
    return (torch.rand(1, 3, 64, 64) * 0.6 + 0.2,)


def verify_inputs():
    torch.manual_seed(7)
    texture = torch.rand(1, 3, 64, 64)
    leaf = torch.zeros(1, 3, 64, 64)
    leaf[:, 1] = 0.7
    leaf[:, :, 20:40, 20:40] = torch.tensor([0.5, 0.3, 0.1]).reshape(1, 3, 1, 1)
    return [
        (texture * 0.1,),                     # too dark
        (0.95 + 0.05 * texture,),             # overexposed
        (torch.full((1, 3, 64, 64), 0.5),),   # flat, no detail (blurry)
        (leaf + 0.3 * texture,),
        (texture * 3.0 - 1.0,),
    ]
