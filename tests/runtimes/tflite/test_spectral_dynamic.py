"""DFT of a real signal whose length is a run-time size (deploy.runtimes.tflite.ops.spectral_dynamic):
the transform matrices are built at run time and the spectrum matches torch for every length."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from deploy.runtimes.tflite.emit import emit_tflite
from deploy.runtimes.tflite.session import load
from tests.runtimes.tflite.export_helpers import to_onnx


class PowerSpectrum(torch.nn.Module):
    """A Hann-free power spectrum of each channel (rfft along the samples)."""

    def forward(self, x):
        return torch.fft.rfft(x, dim=-1).abs() ** 2


class FullSpectrum(torch.nn.Module):
    """Both halves of a real signal's spectrum, as (real, imaginary) pairs."""

    def forward(self, x):
        return torch.view_as_real(torch.fft.fft(x, dim=0))


@pytest.mark.parametrize(
    "module, shape, dim", [(PowerSpectrum(), (2, 3, 64), 2), (FullSpectrum(), (40, 2), 0)]
)
def test_a_spectrum_of_a_run_time_length_matches_torch(tmp_path, module, shape, dim):
    samples = torch.export.Dim("samples", min=4, max=2048)
    model = to_onnx(module, (torch.randn(shape),), dynamic_shapes=({dim: samples},))
    result = emit_tflite(model, tmp_path / "spectrum.tflite")
    assert {"COS", "SIN", "BATCH_MATMUL"} <= set(result["ops"])  # matrices built at run time
    session = load(result["path"])
    g = torch.Generator().manual_seed(0)
    for length in (4, 37, 64, 1001):
        size = list(shape)
        size[dim] = length
        x = torch.randn(size, generator=g)
        (actual,) = session.run([x.numpy()])
        expected = module(x).numpy()
        np.testing.assert_allclose(actual, expected, rtol=1e-4, atol=1e-4 * np.abs(expected).max())


def test_a_spectrum_of_a_static_length_keeps_its_constant_matrix(tmp_path):
    model = to_onnx(PowerSpectrum(), (torch.randn(2, 3, 48),))
    result = emit_tflite(model, tmp_path / "static.tflite")
    session = load(result["path"])
    x = torch.randn(2, 3, 48, generator=torch.Generator().manual_seed(1))
    (actual,) = session.run([x.numpy()])
    expected = PowerSpectrum()(x).numpy()
    np.testing.assert_allclose(actual, expected, rtol=1e-4, atol=1e-4 * np.abs(expected).max())
    assert "FULLY_CONNECTED" in result["ops"] and "COS" not in result["ops"]  # the constant matrix


class WelchSegments(torch.nn.Module):
    """Periodograms of a run-time number of fixed-length segments, averaged (Welch's method)."""

    def forward(self, segments):
        return (torch.fft.rfft(segments, dim=-1).abs() ** 2).mean(1)


def test_a_static_length_over_a_run_time_number_of_segments(tmp_path):
    model = to_onnx(
        WelchSegments(), (torch.randn(2, 5, 32),), dynamic_shapes=({1: torch.export.Dim("n", max=64)},)
    )
    result = emit_tflite(model, tmp_path / "welch.tflite")
    assert "FULLY_CONNECTED" in result["ops"] and "COS" not in result["ops"]
    session = load(result["path"])
    for count in (2, 5, 17):
        x = torch.randn(2, count, 32, generator=torch.Generator().manual_seed(count))
        (actual,) = session.run([x.numpy()])
        expected = WelchSegments()(x).numpy()
        np.testing.assert_allclose(actual, expected, rtol=1e-4, atol=1e-4 * np.abs(expected).max())


class Autocorrelation(torch.nn.Module):
    """A pitch tracker's autocorrelation: irfft of the power spectrum of the zero-padded signal."""

    def forward(self, x):
        n = x.shape[-1]
        spectrum = torch.fft.rfft(x, 2 * n)
        return torch.fft.irfft(spectrum.abs() ** 2, 2 * n)[..., :n]


class Resynthesis(torch.nn.Module):
    """irfft of a spectrum of a run-time number of bins: to the default length 2 (m - 1), and to an
    odd length (the last bin has a mirror image too)."""

    def forward(self, spectrum):
        z = torch.complex(spectrum[..., 0], spectrum[..., 1])
        m = spectrum.shape[1]
        return torch.fft.irfft(z), torch.fft.irfft(z, 2 * m - 1)


def test_an_autocorrelation_of_a_run_time_length_matches_torch(tmp_path):
    samples = torch.export.Dim("samples", min=8, max=1024)
    model = to_onnx(Autocorrelation(), (torch.randn(3, 40),), dynamic_shapes=({1: samples},))
    result = emit_tflite(model, tmp_path / "acf.tflite")
    session = load(result["path"])
    g = torch.Generator().manual_seed(2)
    for length in (8, 31, 40, 500):
        x = torch.randn(3, length, generator=g)
        (actual,) = session.run([x.numpy()])
        expected = Autocorrelation()(x).numpy()
        np.testing.assert_allclose(actual, expected, rtol=1e-4, atol=1e-4 * np.abs(expected).max())


def test_an_inverse_one_sided_spectrum_of_run_time_bins_matches_torch(tmp_path):
    bins = torch.export.Dim("bins", min=2, max=512)
    model = to_onnx(Resynthesis(), (torch.randn(2, 9, 2),), dynamic_shapes=({1: bins},))
    result = emit_tflite(model, tmp_path / "irfft.tflite")
    session = load(result["path"])
    g = torch.Generator().manual_seed(3)
    for count in (2, 9, 16, 257):
        spectrum = torch.randn(2, count, 2, generator=g)
        actual = session.run([spectrum.numpy()])
        for got, want in zip(actual, Resynthesis()(spectrum)):
            want = want.numpy()
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * np.abs(want).max())
