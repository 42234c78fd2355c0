"""Guided depth completion / refinement.

A small CNN predicts an initial correction of a sensor depth map from the RGB
image, missing pixels (depth == 0) are filled from their valid neighbours and
an edge-aware diffusion is iterated until the depth map is smooth enough
(or an iteration budget is exhausted).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def neighbour_stack(t):
    p = F.pad(t, (1, 1, 1, 1), mode="replicate")
    return torch.stack([p[:, :, :-2, 1:-1], p[:, :, 2:, 1:-1],
                        p[:, :, 1:-1, :-2], p[:, :, 1:-1, 2:]], dim=0)


class EdgeAwareSmoother(nn.Module):
    def __init__(self, edge_sensitivity=8.0):
        super().__init__()
        self.edge_sensitivity = edge_sensitivity

    def weights(self, rgb):
        nb = neighbour_stack(rgb)                          # [4, B, 3, H, W]
        diff = (nb - rgb.unsqueeze(0)).abs().mean(2, keepdim=True)
        w = torch.exp(-self.edge_sensitivity * diff)        # [4, B, 1, H, W]
        return w / w.sum(0, keepdim=True)

    def forward(self, depth, w):
        return (neighbour_stack(depth) * w).sum(0)


class IterativeDepthRefiner(nn.Module):
    def __init__(self, tol=0.025, alpha=0.6, max_iters=8):
        super().__init__()
        self.tol = tol
        self.alpha = alpha
        self.max_iters = max_iters
        self.smoother = EdgeAwareSmoother()
        self.correction = nn.Sequential(
            nn.Conv2d(4, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 3, padding=1))
        with torch.no_grad():
            self.correction[2].weight.mul_(0.05)
            self.correction[2].bias.zero_()

    def fill_holes(self, depth):
        valid = (depth > 0.05).float()
        num = F.avg_pool2d(depth * valid, 5, stride=1, padding=2)
        den = F.avg_pool2d(valid, 5, stride=1, padding=2)
        fill = num / den.clamp(min=1e-3)
        return depth * valid + fill * (1.0 - valid)

    def residual(self, depth, w):
        return (depth - self.smoother(depth, w)).abs().mean()

    def forward(self, depth, rgb):
        if (depth < 0.05).any():
            depth = self.fill_holes(depth)
        depth = depth + self.correction(torch.cat([depth, rgb], 1)) * depth
        w = self.smoother.weights(rgb)
        res = self.residual(depth, w)
        it = 0
        while res > self.tol:
            if it >= self.max_iters:
                break
            depth = depth + self.alpha * (self.smoother(depth, w) - depth)
            res = self.residual(depth, w)
            it += 1
        return depth, res


def model():
    torch.manual_seed(0)
    return IterativeDepthRefiner().eval()


def _scene(g, B, H, W, noise, holes=0.0):
    yy = torch.linspace(0, 1, H).view(1, 1, H, 1)
    xx = torch.linspace(0, 1, W).view(1, 1, 1, W)
    rgb = torch.cat([0.5 + 0.4 * torch.sin(4 * xx + yy).expand(B, 1, H, W),
                     (xx + yy).expand(B, 1, H, W) * 0.5,
                     torch.rand(B, 1, H, W, generator=g) * 0.1], 1)
    depth = 2.0 + xx + 0.5 * yy + noise * torch.randn(B, 1, H, W, generator=g)
    if holes > 0:
        depth = depth * (torch.rand(B, 1, H, W, generator=g) > holes).float()
    return depth.expand(B, 1, H, W).contiguous(), rgb


def example_inputs():
    g = torch.Generator().manual_seed(0)
    return _scene(g, 2, 24, 32, 0.1)


def dynamic_shapes():
    b = torch.export.Dim("batch", min=2, max=8)
    h = torch.export.Dim("height", min=8, max=64)
    w = torch.export.Dim("width", min=8, max=64)
    return ({0: b, 2: h, 3: w}, {0: b, 2: h, 3: w})


def verify_inputs():
    g = torch.Generator().manual_seed(4)
    return [
        _scene(g, 2, 16, 16, 0.0),               # already smooth: no iteration
        _scene(g, 2, 20, 24, 0.06),              # one iteration
        _scene(g, 3, 24, 24, 0.3, holes=0.1),    # holes + several iterations
        _scene(g, 2, 32, 32, 3.0),               # very noisy: iteration budget hit
    ]
