"""Ops swapped while exporting (exporter/portable_ops.py): attention layers take their composite
path, not the fused fast path torch.onnx cannot translate (taken, for one, when an early return
puts the layers in code computed at the top level)."""

from __future__ import annotations

import torch

import deploy

ENCODER = """
import torch
from torch import nn

class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList(
            [nn.TransformerEncoderLayer(16, 4, 32, dropout=0.0, batch_first=True) for _ in range(2)]
        )

    def forward(self, x, mask):
        if mask.all():
            return x[:, 0] * 0.0
        for blk in self.blocks:
            x = blk(x, src_key_padding_mask=mask)
        return x[:, 0]

def model():
    torch.manual_seed(0)
    return Encoder().eval()

def example_inputs():
    mask = torch.zeros(2, 6, dtype=torch.bool)
    mask[1, 4:] = True
    return (torch.randn(2, 6, 16), mask)
"""


def test_transformer_encoder_layers_export_to_onnx(tmp_path, write_model):
    res = deploy.export(write_model(ENCODER), targets=["onnx"], out=tmp_path / "out")
    assert res.artifacts["onnx"].parity.ok
    assert torch.backends.mha.get_fastpath_enabled()  # restored after the export


STABLE_SORTS = """
import torch
from torch import nn

class ByPitch(nn.Module):
    def forward(self, notes, velocities):
        order = torch.argsort(notes, stable=True)  # equal pitches keep their order
        loudest = velocities.sort(descending=True, stable=True)
        return notes[order], velocities[order], loudest.values, loudest.indices

def model():
    return ByPitch().eval()

def example_inputs():
    return torch.tensor([64, 60, 67, 60, 64]), torch.tensor([90.0, 80.0, 80.0, 70.0, 90.0])

def dynamic_shapes():
    return ({0: torch.export.Dim("voices", min=2, max=16)}, {0: torch.export.Dim("voices", min=2, max=16)})

def verify_inputs():
    return [example_inputs(), (torch.tensor([72, 72, 72]), torch.tensor([10.0, 10.0, 5.0]))]
"""


def test_stable_sorts_export_with_ties_in_their_order(tmp_path, write_model):
    # aten.sort.stable has no torch.onnx translation; while exporting it is ranked by pairwise comparison
    res = deploy.export(write_model(STABLE_SORTS), targets=["onnx", "tflite"], out=tmp_path / "out")
    assert res.artifacts["onnx"].parity.ok and res.artifacts["tflite"].parity.ok
    assert torch.argsort is torch._C._VariableFunctions.argsort  # restored after the export


NANMEDIAN = """
import torch

class Depth(torch.nn.Module):
    def forward(self, counts):
        lib = counts.sum(1)
        keep = lib >= 10.0
        return counts / torch.where(keep, lib, torch.full_like(lib, float("nan"))).nanmedian()

def model():
    return Depth().eval()

def example_inputs():
    return (torch.arange(24.0).reshape(6, 4),)

def dynamic_shapes():
    return ({0: torch.export.Dim("cells", min=2, max=64)},)

def verify_inputs():
    return [example_inputs(), (torch.arange(40.0).reshape(10, 4).flip(0),), (torch.full((3, 4), 5.0),)]
"""


def test_nanmedian_exports_as_the_lower_median_of_the_present_entries(tmp_path, write_model):
    # aten.nanmedian has no torch.onnx translation; the last verify input has no entry kept (NaN)
    res = deploy.export(write_model(NANMEDIAN), targets=["onnx", "tflite"], out=tmp_path / "out")
    assert res.artifacts["onnx"].parity.ok and res.artifacts["tflite"].parity.ok
    assert torch.Tensor.nanmedian is torch._C.TensorBase.nanmedian  # restored after the export


KTHVALUE = """
import torch

class Percentile(torch.nn.Module):
    def forward(self, loads):
        k = max(1, int(0.9 * loads.shape[0]))
        return loads.kthvalue(k).values, torch.kthvalue(loads, 2, dim=0, keepdim=True).indices

def model():
    return Percentile()

def example_inputs():
    return (torch.tensor([3.0, 1.0, 4.5, 1.5, 5.0, 9.0, 2.5, 6.0]),)

def dynamic_shapes():
    return ({0: torch.export.Dim("sensors", min=2, max=64)},)

def verify_inputs():
    return [example_inputs(), (torch.tensor([2.0, -1.0]),), (torch.linspace(5.0, -3.0, 64),)]
"""


def test_kthvalue_exports_as_the_last_of_the_k_smallest(tmp_path, write_model):
    # aten.kthvalue has no torch.onnx translation; k comes from the dynamic size
    res = deploy.export(write_model(KTHVALUE), targets=["onnx", "tflite"], out=tmp_path / "out")
    assert res.artifacts["onnx"].parity.ok and res.artifacts["tflite"].parity.ok
    assert torch.Tensor.kthvalue is torch._C.TensorBase.kthvalue  # restored after the export


COMPLEX_MEAN = """
import math
import torch

class Kasai(torch.nn.Module):
    def forward(self, iq):
        z = torch.complex(iq[0], iq[1])
        z = z - z.mean(dim=0, keepdim=True)
        r1 = (z[:-1].conj() * z[1:]).sum(dim=0)
        return torch.angle(r1) / math.pi, z.abs().pow(2).mean(dim=0), torch.mean(z).real.reshape(1)

def model():
    return Kasai()

def example_inputs():
    return (torch.randn(2, 8, 16),)

def dynamic_shapes():
    return ({1: torch.export.Dim("ensemble", min=4, max=32), 2: torch.export.Dim("depth", min=4, max=64)},)

def verify_inputs():
    return [(torch.randn(2, 4, 40),), (torch.randn(2, 32, 5),)]
"""


def test_a_complex_mean_over_a_dynamic_dim_keeps_it_dynamic(tmp_path, write_model):
    # torch's complex mean converts the entry count to a complex number: `Eq(ensemble, 8)`
    res = deploy.export(write_model(COMPLEX_MEAN), targets=["onnx"], out=tmp_path / "out")
    assert res.artifacts["onnx"].parity.ok and res.artifacts["onnx"].parity.cases >= 3
    assert torch.Tensor.mean is torch._C.TensorBase.mean  # restored after the export


KEPT_MEAN = """
import torch

class KeptMean(torch.nn.Module):
    def forward(self, x):
        kept = x[x.sum(1) > 0]  # maybe no row
        return kept.mean(dim=0), x.mean(dim=0)

def model():
    return KeptMean()

def example_inputs():
    return (torch.tensor([[1.0, 2.0], [-3.0, -1.0], [2.0, 0.5]]),)

def dynamic_shapes():
    return ({0: torch.export.Dim("rows", min=2, max=16)},)
"""


def test_a_mean_over_rows_a_filter_kept_is_nan_where_it_kept_none(tmp_path, write_model):
    # onnxruntime's ReduceMean of an empty axis gives 0, torch's mean NaN
    from deploy.runtimes.onnx.session import load

    res = deploy.export(write_model(KEPT_MEAN), targets=["onnx"], out=tmp_path / "out")
    session = load(res.artifacts["onnx"].path)
    kept, whole = session.run([torch.tensor([[-1.0, -2.0], [-3.0, 0.5]]).numpy()])
    assert torch.isnan(torch.as_tensor(kept)).all()
    assert torch.allclose(torch.as_tensor(whole), torch.tensor([-2.0, -0.75]))


GRADIENT = """
import torch

class Slopes(torch.nn.Module):
    def forward(self, trace, image):
        kept = trace[trace > 0.0]  # a data-dependent number of samples
        slope = torch.gradient(kept)[0]
        rows, cols = torch.gradient(image, spacing=(0.5, 2.0), dim=(0, 1))
        return slope.abs().sum(), rows, cols

def model():
    return Slopes()

def example_inputs():
    return torch.tensor([0.5, 1.5, -1.0, 4.0, 2.0, 3.0]), torch.arange(20.0).reshape(4, 5) ** 1.5

def dynamic_shapes():
    return ({0: torch.export.Dim("samples", min=3, max=64)},
            {0: torch.export.Dim("rows", min=2, max=16), 1: torch.export.Dim("cols", min=2, max=16)})

def verify_inputs():
    return [
        example_inputs(),
        (torch.tensor([1.0, -2.0, 3.0]), torch.tensor([[1.0, 4.0], [9.0, 2.0]])),
        (torch.linspace(-1.0, 5.0, 64) ** 2, torch.linspace(0.0, 3.0, 256).reshape(16, 16).sin()),
    ]
"""


def test_gradient_of_a_data_dependent_size_exports(tmp_path, write_model):
    # torch's gradient checks the size before slicing: a guard on the kept samples' count
    res = deploy.export(write_model(GRADIENT), targets=["onnx", "tflite"], out=tmp_path / "out")
    assert res.artifacts["onnx"].parity.ok and res.artifacts["tflite"].parity.ok
    assert torch.gradient is torch._C._VariableFunctions.gradient  # restored after the export
