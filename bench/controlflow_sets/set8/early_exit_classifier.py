"""BranchyNet-style image classifier: at test time it returns from the first exit head that is confident enough."""

import torch
from torch import nn

NUM_CLASSES = 10


def conv_bn(cin, cout, stride):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU6())


class ExitHead(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(c, NUM_CLASSES)

    def forward(self, x):
        return self.fc(self.pool(x).flatten(1))


class EarlyExitNet(nn.Module):
    def __init__(self, thresholds: tuple = (0.7, 0.45)):
        super().__init__()
        chans = [3, 16, 32, 64]
        self.stages = nn.ModuleList(conv_bn(chans[i], chans[i + 1], 2) for i in range(3))
        self.exits = nn.ModuleList(ExitHead(c) for c in chans[1:])
        self.thresholds = thresholds
        self.dropout = nn.Dropout(0.2)

    def forward(self, x):
        all_logits = []
        for i, (stage, head) in enumerate(zip(self.stages, self.exits)):
            x = stage(x)
            logits = head(self.dropout(x) if self.training else x)
            if self.training:
                all_logits.append(logits)
                continue
            conf = logits.softmax(-1).max(-1).values
            if i < len(self.stages) - 1 and conf.min() > self.thresholds[i]:
                return logits, torch.tensor(i)
        if self.training:
            return torch.stack(all_logits)
        return logits, torch.tensor(len(self.stages) - 1)


def model():
    torch.manual_seed(0)
    net = EarlyExitNet()
    with torch.no_grad():
        for head, std in zip(net.exits, (0.6, 1.5, 0.6)):
            nn.init.normal_(head.fc.weight, std=std)
    return net.eval()


def example_inputs():
    torch.manual_seed(1)
    return (torch.randn(2, 3, 32, 32),)


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=1, max=16)},)


def _img(seed, scale):
    g = torch.Generator().manual_seed(seed)
    b = int(torch.randint(1, 5, (1,), generator=g))
    return (torch.randn(b, 3, 32, 32, generator=g) * scale,)


def verify_inputs():
    # (0, 8) and (1, 8): exit 0; (4, 3): exit 1; (0, 2) and (1, 2): no early exit (last head).
    return [
        _img(0, 8.0),
        _img(1, 8.0),
        _img(4, 3.0),
        _img(0, 2.0),
        _img(1, 2.0),
        (torch.randn(16, 3, 32, 32),),
    ]
