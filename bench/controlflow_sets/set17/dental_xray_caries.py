"""Dental x-ray caries triage: per-tooth crops, severity ladder via elif chain (typical)."""
import torch
from torch import nn


class ToothCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(1, 8, 3, padding=1)
        self.c2 = nn.Conv2d(8, 8, 3, padding=1)
        self.fc = nn.Linear(8, 1)

    def forward(self, x):
        h = torch.relu(self.c1(x))
        h = torch.relu(self.c2(h)).mean((-1, -2))
        return self.fc(h).squeeze(-1)


class CariesTriage(nn.Module):
    def __init__(self):
        super().__init__()
        self.cnn = ToothCNN()
        self.use_contrast_norm = True

    def forward(self, crops: torch.Tensor):
        # crops: [N, 1, H, W]; N teeth dynamic
        lesion = crops.amax((1, 2, 3)) - crops.mean((1, 2, 3))
        if self.use_contrast_norm:  # static
            crops = (crops - crops.mean()) / (crops.std() + 1e-3)
        logit = self.cnn(crops)
        worst = lesion.max()
        if worst > 1.5:
            grade = torch.tensor(3)
        elif worst > 0.8:
            grade = torch.tensor(2)
        elif worst > 0.4:
            grade = torch.tensor(1)
        else:
            grade = torch.tensor(0)
        refer = (grade >= 2) or bool(logit.max() > 5.0)
        return logit.sigmoid(), grade, torch.tensor(bool(refer))


def model():
    torch.manual_seed(11)
    return CariesTriage().eval()


def _crops(n, spot):
    g = torch.Generator().manual_seed(12)
    x = torch.rand(n, 1, 12, 12, generator=g) * 0.1
    x[0, 0, 5:7, 5:7] = spot
    return x


def example_inputs():
    return (_crops(6, 0.6),)


def dynamic_shapes():
    return ({0: torch.export.Dim("teeth", min=2, max=32)},)


def verify_inputs():
    return [(_crops(4, 0.0),), (_crops(8, 2.0),), (_crops(3, 1.2),)]
