"""Sparse matrix-vector product with run-time storage format selection.

The kind of heuristic a sparse BLAS / JIT uses before lowering SpMV: small
or fairly dense matrices go to the dense GEMV kernel, matrices with an even
row-length distribution are packed in ELLPACK (padded, vectorisable), and
skewed ones use CSR with a per-row loop.  Square systems with a usable
diagonal are Jacobi-scaled afterwards for the iterative solver that calls us.
"""
import torch
import torch.nn as nn


class SpmvFormatSelector(nn.Module):
    def __init__(self):
        super().__init__()
        self.dense_fill = 0.35
        self.ell_skew = 2.0
        self.small_rows = 8
        self.jacobi = True

    def ell_spmv(self, a, x, width):
        cols, vals = [], []
        for r in range(a.shape[0]):
            nz = torch.nonzero(a[r]).flatten()
            pad = width - nz.shape[0]
            cols.append(torch.cat([nz, torch.zeros(pad, dtype=torch.long)]))
            vals.append(torch.cat([a[r, nz], torch.zeros(pad)]))
        col = torch.stack(cols)
        val = torch.stack(vals)
        return (val * x[col]).sum(1)

    def csr_spmv(self, a, x):
        mask = a != 0
        values = a[mask]
        col_idx = torch.nonzero(mask)[:, 1]
        row_ptr = torch.cat([torch.zeros(1, dtype=torch.long), torch.cumsum(mask.sum(1), 0)])
        out = []
        for r in range(a.shape[0]):
            start, end = row_ptr[r], row_ptr[r + 1]
            if start == end:
                out.append(torch.zeros(()))  # empty row
                continue
            out.append((values[start:end] * x[col_idx[start:end]]).sum())
        return torch.stack(out)

    def forward(self, a, x):
        m, n = a.shape
        nnz_row = (a != 0).sum(1)
        fill = nnz_row.sum() / (m * n)
        if m < self.small_rows or fill > self.dense_fill:
            fmt = 0
            y = a @ x
        elif nnz_row.max() <= self.ell_skew * nnz_row.float().mean():
            fmt = 1
            y = self.ell_spmv(a, x, int(nnz_row.max()))
        else:
            fmt = 2
            y = self.csr_spmv(a, x)

        if self.jacobi and m == n:
            d = torch.diagonal(a)
            if (d.abs() > 1e-6).all():
                y = y / d
        return y, torch.tensor(fmt)


def model():
    torch.manual_seed(5906)
    return SpmvFormatSelector().eval()


def make_sparse(m, n, density, seed, skew_rows=0, diag=False, per_row=0):
    g = torch.Generator().manual_seed(seed)
    vals = torch.randn(m, n, generator=g)
    keep = torch.rand(m, n, generator=g) < density
    if per_row:  # stencil-like: the same number of couplings in every row
        keep = torch.zeros(m, n, dtype=torch.bool)
        for r in range(m):
            keep[r, torch.randperm(n, generator=g)[:per_row]] = True
    if skew_rows:
        keep[:skew_rows] = True  # a few dense rows (e.g. a global constraint)
    a = vals * keep
    if diag:
        k = min(m, n)
        a[torch.arange(k), torch.arange(k)] = 4.0 + torch.rand(k, generator=g)
    x = torch.randn(n, generator=g)
    return a, x


def example_inputs():
    return make_sparse(24, 24, 0.0, 1, diag=True, per_row=3)


def dynamic_shapes():
    m = torch.export.Dim("rows", min=2, max=96)
    n = torch.export.Dim("cols", min=2, max=96)
    return ({0: m, 1: n}, {0: n})


def verify_inputs():
    # example: 24x24 square, even rows -> ELL, then Jacobi scaling
    ex = example_inputs()
    # 2 x 2 (min dims): tiny -> dense kernel, square but a zero on the diagonal
    tiny = (torch.tensor([[0.0, 2.0], [1.5, 3.0]]), torch.tensor([1.0, -1.0]))
    # 96 x 96 (max dims), a few dense rows -> skewed -> CSR (empty rows too)
    skew = make_sparse(96, 96, 0.015, 2, skew_rows=3)
    # 40 x 12 rectangular, 50 % fill -> dense, no Jacobi (not square)
    dense = make_sparse(40, 12, 0.5, 3)
    return [ex, tiny, skew, dense]
