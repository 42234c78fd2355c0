"""Ops in cond branches whose form changed by opset 20 (DFT's axis, GridSample's mode names) run in
onnxruntime: torch.onnx converts only the main graph to opset 20 (deploy.runtimes.onnx.subgraph_versions)."""

from __future__ import annotations

import numpy as np
import onnxruntime as ort
import torch
import torch.nn.functional as F

from deploy.runtimes.onnx.emit import build_onnx


def _run(program, *inputs):
    model = build_onnx(program, run_onnxsim=False).model
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return session.run(None, {i.name: x.numpy() for i, x in zip(session.get_inputs(), inputs)})[0]


class BranchSpectrum(torch.nn.Module):
    """The power spectrum of a signal, or of its first difference when it drifts."""

    def forward(self, x):
        return torch.cond(
            x.mean() > 0,
            lambda x: torch.fft.rfft(torch.diff(x, dim=-1), dim=-1).abs(),
            lambda x: torch.fft.rfft(x[:, 1:], dim=-1).abs(),
            (x,),
        )


def test_an_rfft_in_a_cond_branch_runs_and_matches():
    g = torch.Generator().manual_seed(0)
    program = torch.export.export(
        BranchSpectrum(),
        (torch.randn(2, 64, generator=g),),
        dynamic_shapes=({1: torch.export.Dim("samples", min=8, max=512)},),
    )
    for signal in (torch.randn(2, 100, generator=g) + 1, torch.randn(2, 37, generator=g) - 1):
        expected = BranchSpectrum()(signal).numpy()
        np.testing.assert_allclose(
            _run(program, signal), expected, rtol=1e-4, atol=1e-4 * np.abs(expected).max()
        )


class BranchWarp(torch.nn.Module):
    """Bilinear sampling of a bright image, bicubic of a dark one."""

    def forward(self, image, grid):
        return torch.cond(
            image.sum() > 0,
            lambda image, grid: F.grid_sample(image, grid, align_corners=False),
            lambda image, grid: F.grid_sample(image, grid, mode="bicubic", align_corners=True),
            (image, grid),
        )


def test_grid_samples_in_cond_branches_run_and_match():
    g = torch.Generator().manual_seed(1)
    image, grid = torch.randn(1, 2, 8, 8, generator=g), torch.rand(1, 5, 5, 2, generator=g) * 2 - 1
    program = torch.export.export(BranchWarp(), (image, grid))
    for sample in (image.abs() + 1, -image.abs() - 1):
        np.testing.assert_allclose(_run(program, sample, grid), BranchWarp()(sample, grid).numpy(), atol=1e-5)
