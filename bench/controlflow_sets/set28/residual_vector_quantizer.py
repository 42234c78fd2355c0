"""Neural codec bottleneck: residual vector quantization with early stop once the residual is small."""
import torch
import torch.nn as nn


class Codebook(nn.Module):
    def __init__(self, size, dim, scale):
        super().__init__()
        self.codes = nn.Parameter(torch.randn(size, dim) * scale)

    def forward(self, residual):
        d = torch.cdist(residual, self.codes)
        idx = d.argmin(dim=1)
        return self.codes[idx], idx


class ResidualVQ(nn.Module):
    def __init__(self, dim=6, size=16, n_books=6):
        super().__init__()
        self.codebooks = nn.ModuleList([Codebook(size, dim, 0.5 ** s) for s in range(n_books)])
        self.decoder = nn.Linear(dim, dim)
        self.max_stages = 5      # bitrate setting: use at most 5 of the 6 books
        self.tol = 0.05

    def forward(self, latents):
        # latents [N, D] encoder frames
        residual = latents
        quantized = torch.zeros_like(latents)
        codes = []
        for stage, book in enumerate(self.codebooks):
            if stage >= self.max_stages:
                break
            q, idx = book(residual)
            quantized = quantized + q
            residual = residual - q
            codes.append(idx)
            if residual.norm(dim=1).max() < self.tol:
                break
        return self.decoder(quantized), torch.stack(codes, dim=1)


def model():
    torch.manual_seed(0)
    return ResidualVQ().eval()


def _case(seed, n, n_exact_stages, noise):
    # frames built from codebook entries so that quantization can become (almost) exact
    with torch.random.fork_rng():
        m = model()
    g = torch.Generator().manual_seed(seed)
    x = torch.zeros(n, 6)
    for s in range(n_exact_stages):
        idx = torch.randint(0, 16, (n,), generator=g)
        x = x + m.codebooks[s].codes.detach()[idx]
    return (x + noise * torch.randn(n, 6, generator=g),)


def example_inputs():
    return _case(1, 8, 2, 0.005)


def dynamic_shapes():
    n = torch.export.Dim("frames", min=2, max=64)
    return ({0: n},)


def verify_inputs():
    return [
        _case(2, 6, 1, 0.005),    # stops after the first book
        _case(3, 6, 3, 0.004),    # stops after three books
        _case(6, 5, 0, 1.0),      # generic frames: runs to the bitrate limit
        _case(4, 4, 2, 0.01),     # stops after two books
        _case(6, 6, 3, 0.004),
    ]
