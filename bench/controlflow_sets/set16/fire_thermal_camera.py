"""Fire detection on a low-res thermal camera (values in deg C).

Hot-spot frames get a centroid of the hot region; warm frames run the CNN
classifier; cool frames short-circuit. Returns (fire_prob, hot_centroid).
"""
import torch
from torch import nn

HOT_C = 150.0
WARM_C = 45.0


class ThermalCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Linear(16, 1)

    def forward(self, x):
        return torch.sigmoid(self.fc(self.body(x).flatten(1)))


def hot_centroid(t, thresh):
    mask = (t > thresh).float()
    h, w = t.shape[-2], t.shape[-1]
    ys = torch.arange(h, dtype=torch.float32).view(1, 1, h, 1)
    xs = torch.arange(w, dtype=torch.float32).view(1, 1, 1, w)
    n = mask.sum().clamp_min(1.0)
    return torch.stack([(mask * ys).sum() / n, (mask * xs).sum() / n])


class FireDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.cnn = ThermalCNN()

    def forward(self, temp):  # (1, 1, H, W)
        peak = temp.amax()
        if peak > HOT_C:
            c = hot_centroid(temp, HOT_C)
            prob = torch.ones(1, 1)
        elif temp.mean() > WARM_C or peak > 2.0 * WARM_C:
            prob = self.cnn((temp - 30.0) / 20.0)
            c = hot_centroid(temp, WARM_C)
        else:
            return torch.zeros(1, 1), torch.full((2,), -1.0)
        prob = prob if peak < 400.0 else prob.clamp_min(0.99)
        return prob, c


def model():
    torch.manual_seed(0)
    return FireDetector().eval()


def _frame(h, w, ambient, spot, seed):
    g = torch.Generator().manual_seed(seed)
    x = ambient + torch.rand(1, 1, h, w, generator=g) * 2.0
    x[..., h // 3: h // 3 + 3, w // 2: w // 2 + 3] = spot
    return x


def example_inputs():
    return (_frame(24, 32, 22.0, 60.0, 0),)


def dynamic_shapes():
    return ({2: torch.export.Dim("h", min=8, max=128), 3: torch.export.Dim("w", min=8, max=160)},)


def verify_inputs():
    return [
        (_frame(24, 32, 22.0, 500.0, 1),),   # fire, extreme peak
        (_frame(16, 16, 25.0, 200.0, 2),),   # hot spot
        (_frame(24, 32, 50.0, 55.0, 3),),    # warm room -> CNN
        (_frame(32, 40, 20.0, 30.0, 4),),    # cool -> early return
        (_frame(24, 32, 20.0, 110.0, 5),),   # warm peak only (or-branch second operand)
    ]
