"""Multi-exit CNN image classifier: every stage has an exit head and the batch
leaves the network as soon as all images are confidently classified."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvStage(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, padding=1)
        self.bn = nn.BatchNorm2d(cout)

    def forward(self, x):
        x = F.relu(self.bn(self.conv(x)))
        # only pool while the feature map is still large enough
        if x.shape[-1] >= 8 and x.shape[-2] >= 8:
            x = F.max_pool2d(x, 2)
        return x


class ExitHead(nn.Module):
    def __init__(self, c, num_classes):
        super().__init__()
        self.fc = nn.Linear(c, num_classes)

    def forward(self, x, temperature):
        return self.fc(x.mean(dim=(2, 3))) / temperature


class CascadeImageClassifier(nn.Module):
    def __init__(self, num_classes=6, exit_threshold=0.6, temperature=0.25):
        super().__init__()
        chans = [3, 8, 16, 32]
        self.stages = nn.ModuleList(ConvStage(chans[i], chans[i + 1]) for i in range(3))
        self.heads = nn.ModuleList(ExitHead(chans[i + 1], num_classes) for i in range(3))
        self.exit_threshold = exit_threshold
        self.temperature = temperature
        self.calibrated = True

    def forward(self, images):
        x = images
        if images.shape[-1] > 48:  # downscale very wide inputs first
            x = F.avg_pool2d(x, 2)
        probs = torch.zeros(images.shape[0], self.heads[0].fc.out_features)
        for depth, (stage, head) in enumerate(zip(self.stages, self.heads)):  # static
            x = stage(x)
            t = self.temperature if self.calibrated else 1.0  # static
            probs = head(x, t).softmax(-1)
            confidence = probs.amax(-1)
            if bool((confidence > self.exit_threshold).all()):
                return probs, torch.tensor(depth)
        return probs, torch.tensor(len(self.stages))


def model():
    torch.manual_seed(0)
    return CascadeImageClassifier().eval()


def _images(b, h, w, scale, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(b, 3, h, w, generator=g) * scale


def example_inputs():
    return (_images(2, 16, 16, 1.0, 1),)


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=2, max=16),
             2: torch.export.Dim("height", min=2, max=128),
             3: torch.export.Dim("width", min=2, max=128)},)


def verify_inputs():
    return [
        (_images(3, 56, 60, 1.0, 2),),
        (_images(2, 6, 6, 3.0, 3),),
        (_images(4, 20, 12, 0.3, 4),),
    ]
