"""A dynamic size read by a loop body inside a cond branch: ``n - pos`` (``n = x.shape[0]``,
``pos`` the loop's tensor counter) in the rest of an early return on the size, which leaves outputs
of other sizes (TextTiling's `if n < 2 * block + 1: return ...`). The cond must trace its branch
(lifted_symbols.py); the fallback that computes both branches builds the gap buffer at a negative
size for the shortest inputs."""

from __future__ import annotations

import deploy

GAPS = """
import torch

class GapBoundaries(torch.nn.Module):
    def gaps(self, x):
        sims = []
        for g in range(3, x.shape[0] - 2):
            sims.append(x[g - 3 : g].mean() - x[g : g + 3].mean())
        return torch.stack(sims)

    def forward(self, x):
        n = x.shape[0]
        if n < 7:
            return torch.zeros(n), torch.zeros(1)
        sims = self.gaps(x)
        out = torch.zeros(n)
        last = 0
        for i in range(sims.shape[0]):
            if sims[i] <= 0:
                continue
            pos = i + 3
            if pos - last < 2:
                continue
            if n - pos < 3:
                break
            out[pos] = 1.0
            last = pos
        return out, sims

def model():
    return GapBoundaries().eval()

def _x(n, seed):
    return (torch.randn(n, generator=torch.Generator().manual_seed(seed)),)

def example_inputs():
    return _x(20, 0)

def dynamic_shapes():
    return ({0: torch.export.Dim("n", min=2, max=64)},)

def verify_inputs():
    steps = torch.tensor([0.0, 0.0, 0.0, 5.0, 5.0, 5.0, 0.0, 0.0, 0.0, 5.0, 5.0, 5.0])
    return [_x(20, 0), (torch.tensor([1.0, 2.0]),), _x(6, 1), _x(30, 2), (steps,)]
"""


def test_a_size_read_in_a_loop_inside_a_resizing_cond_exports_and_matches(tmp_path, write_model):
    res = deploy.export(write_model(GAPS), targets=["onnx"], out=tmp_path / "out")
    parity = res.artifacts["onnx"].parity
    assert parity.ok and parity.cases >= 7
    kinds = {(r["kind"], r["line"]) for r in res.report["rewrites"]}
    early = GAPS.splitlines().index("        if n < 7:") + 1
    assert ("if->cond", early) in kinds  # a cond, not both paths computed and selected
