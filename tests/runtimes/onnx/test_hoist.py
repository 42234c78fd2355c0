"""Transposes feeding a MatMul inside Loop bodies: onnxruntime's MatmulTransposeFusion miscomputes
them there, so deploy hoists the loop-invariant ones and shields the others."""

from __future__ import annotations

import numpy as np
import onnxruntime as ort
import torch

from deploy.runtimes.onnx.emit import build_onnx


class Refine(torch.nn.Module):
    """Gauss-Newton-style updates in a tensor while loop: ``jac`` is carried, ``jac.T @ err``."""

    def forward(self, q, target):
        def cond(i, q, jac):
            return i < 6

        def body(i, q, jac):
            err = target - torch.stack([q.cos().sum(), q.sin().sum()])
            q = q + 0.3 * (jac.T @ err)
            jac = torch.stack([-q.sin(), q.cos()])
            return i + 1, q.clone(), jac.clone()

        jac = torch.stack([-q.sin(), q.cos()])
        _, q, _ = torch._higher_order_ops.while_loop(cond, body, (torch.zeros((), dtype=torch.int64), q, jac))
        return q


def test_transposes_in_loop_bodies_compute_what_eager_computes_under_default_optimisations():
    q0, t0 = torch.tensor([0.3, -0.2, 0.5]), torch.tensor([1.2, 0.9])
    program = torch.export.export(Refine(), (q0, t0))
    model = build_onnx(program, run_onnxsim=False).model
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    for q, target in ((q0, t0), (torch.tensor([1.0, 0.4, -0.7]), torch.tensor([-0.5, 1.5]))):
        got = session.run(None, {i.name: x.numpy() for i, x in zip(session.get_inputs(), (q, target))})
        np.testing.assert_allclose(got[0], Refine()(q, target).numpy(), rtol=1e-5, atol=1e-6)


class MatrixVector(torch.nn.Module):
    def forward(self, jac, err, m):
        return jac.T @ err, jac.T @ m, jac @ jac.T


def test_matrix_vector_products_of_a_transpose_match_eager():
    """onnxruntime's fusion gets ``A.T @ v`` wrong for a 1-D ``v`` even outside any loop."""
    g = torch.Generator().manual_seed(3)
    inputs = (torch.randn(2, 3, generator=g), torch.randn(2, generator=g), torch.randn(2, 2, generator=g))
    model = build_onnx(torch.export.export(MatrixVector(), inputs), run_onnxsim=False).model
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    got = session.run(None, {i.name: x.numpy() for i, x in zip(session.get_inputs(), inputs)})
    for g_, e in zip(got, MatrixVector()(*inputs), strict=True):
        np.testing.assert_allclose(g_, e.numpy(), rtol=1e-5, atol=1e-6)
