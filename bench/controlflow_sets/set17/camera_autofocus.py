"""Camera contrast autofocus: hill-climb the lens position on a focus curve until the peak (tricky)."""
import torch
from torch import nn


class Sharpness(nn.Module):
    def __init__(self):
        super().__init__()
        k = torch.tensor([[0.0, 1.0, 0.0], [1.0, -4.0, 1.0], [0.0, 1.0, 0.0]])
        self.register_buffer("lap", k.view(1, 1, 3, 3))

    def forward(self, img):
        return torch.nn.functional.conv2d(img, self.lap).pow(2).mean()


class AutoFocus(nn.Module):
    def __init__(self):
        super().__init__()
        self.sharp = Sharpness()
        self.max_steps = 12

    def forward(self, stack: torch.Tensor, start: torch.Tensor):
        # stack: [P, 1, H, W] frames at P lens positions; start: int64 scalar position
        P = stack.shape[0]
        scores = torch.stack([self.sharp(stack[p:p + 1]) for p in range(P)])
        pos = start.clone()
        step = torch.ones((), dtype=torch.int64)
        if pos + 1 < P and scores[pos + 1] < scores[pos]:
            step = -step
        n = 0
        while n < self.max_steps:
            nxt = pos + step
            if nxt < 0 or nxt >= P:
                break
            if scores[nxt] <= scores[pos]:
                break
            pos = nxt
            n += 1
        return pos, scores[pos], torch.tensor(n)


def model():
    torch.manual_seed(16)
    return AutoFocus().eval()


def _stack(P, best):
    g = torch.Generator().manual_seed(17)
    tex = torch.randn(1, 1, 10, 10, generator=g)
    frames = []
    for p in range(P):
        blur = 1.0 / (1.0 + abs(p - best))
        frames.append(tex * blur)
    return torch.cat(frames)


def example_inputs():
    return (_stack(8, 5), torch.tensor(2))


def dynamic_shapes():
    return ({0: torch.export.Dim("positions", min=3, max=64)}, None)


def verify_inputs():
    return [(_stack(10, 1), torch.tensor(6)), (_stack(6, 3), torch.tensor(3)), (_stack(5, 4), torch.tensor(1)),
            (_stack(5, 0), torch.tensor(4))]
