"""Single-cell RNA-seq: QC, library-size normalisation and a fixed gene-panel encoder for cell embeddings.

Kind T. Constructs: 1, 2, 3, 7, 8, 9.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class CellEmbedder(nn.Module):
    def __init__(self, panel=64, n_latent=8, min_counts=200.0, log_input=True):
        super().__init__()
        self.panel = panel
        self.n_latent = n_latent
        self.min_counts = min_counts
        self.log_input = log_input
        self.inp = nn.Linear(panel, 32)
        self.blocks = nn.ModuleList(
            [nn.Sequential(nn.LayerNorm(32), nn.Linear(32, 32), nn.GELU(), nn.Dropout(0.1)) for _ in range(2)]
        )
        self.out = nn.Linear(32, n_latent)

    def _reference_depth(self, lib, keep):
        if keep.sum() < 3:
            # too few good cells for a stable median
            return (lib * keep).sum() / keep.sum()
        return torch.where(keep, lib, torch.full_like(lib, float("nan"))).nanmedian()

    def forward(self, counts):
        lib = counts.sum(1)
        keep = lib >= self.min_counts
        if not keep.any():
            # every cell failed QC (empty droplets)
            return torch.zeros(counts.shape[0], self.n_latent, dtype=counts.dtype), keep.to(counts.dtype)

        ref = self._reference_depth(lib, keep)
        x = counts * (ref / lib.clamp(min=1.0))[:, None]
        if self.log_input and x.max() > 50:
            # raw counts: log-transform (already log-scaled matrices are left alone)
            x = torch.log1p(x)

        n_genes = counts.shape[1]
        if n_genes > self.panel:
            x = x[:, : self.panel]
        elif n_genes < self.panel:
            x = F.pad(x, (0, self.panel - n_genes))

        h = self.inp(x)
        for block in self.blocks:
            h = h + block(h)
        z = self.out(h)
        if not self.training:  # static
            z = F.normalize(z, dim=1)  # cosine-space embeddings for retrieval at inference
        z = torch.where(keep[:, None], z, torch.zeros_like(z))
        return z, keep.to(counts.dtype)


def model():
    torch.manual_seed(36010)
    return CellEmbedder().eval()


def _counts(seed, cells, genes, depth=10.0, low_cells=()):
    g = torch.Generator().manual_seed(seed)
    rates = depth * torch.rand(cells, genes, generator=g) ** 2 * (1 + torch.rand(cells, 1, generator=g))
    for c in low_cells:
        rates[c] *= 0.02
    return torch.poisson(rates, generator=g)


def example_inputs():
    # 16 cells x 80 genes of raw counts: all pass QC, more genes than the panel -> truncate
    return (_counts(1, 16, 80),)


def dynamic_shapes():
    cells = torch.export.Dim("cells", min=2, max=4096)
    genes = torch.export.Dim("genes", min=4, max=2000)
    return ({0: cells, 1: genes},)


def verify_inputs():
    g = torch.Generator().manual_seed(9)
    log_scaled = torch.log1p(torch.poisson(60.0 * torch.rand(5, 64, generator=g), generator=g))
    return [
        example_inputs(),                                   # median depth, log1p, truncate to panel
        (_counts(2, 10, 40, depth=30.0, low_cells=(2, 7)),), # two cells fail QC, fewer genes -> pad
        (log_scaled,),                                      # already log-scaled (max < 50), exactly panel-sized genes
        (_counts(3, 3, 20, depth=2.0),),                    # every cell below min counts -> early return
        (_counts(4, 4, 100, depth=12.0, low_cells=(0, 3)),), # only 2 good cells -> mean reference depth
    ]
