"""Every sample loads with the model.py convention and runs eagerly, with random weights only."""

from __future__ import annotations

import pytest
import torch

from deploy.exporter.loader import load_model_file

from .conftest import SAMPLES

SAMPLE_FILES = sorted(p.name for p in SAMPLES.glob("*.py"))


@pytest.mark.parametrize("name", SAMPLE_FILES)
def test_sample_loads_and_runs(name):
    loaded = load_model_file(SAMPLES / name)
    with torch.no_grad():
        out = loaded.module.eval()(*loaded.example_inputs)
    assert isinstance(out, torch.Tensor) and torch.isfinite(out).all()
    for extra in loaded.verify_inputs:
        with torch.no_grad():
            loaded.module(*extra)


def test_expected_samples_exist():
    assert {"mobilenet_v2.py", "resnet.py", "tiny_transformer.py", "branchy.py", "rnn_loop.py"} <= set(
        SAMPLE_FILES
    )


def test_mobilenet_v2_is_the_standard_config():
    module = load_model_file(SAMPLES / "mobilenet_v2.py").module
    params = sum(p.numel() for p in module.parameters())
    assert 3_400_000 < params < 3_600_000  # torchvision's mobilenet_v2 has 3,504,872


def test_resnet_is_resnet18():
    module = load_model_file(SAMPLES / "resnet.py").module
    assert 11_600_000 < sum(p.numel() for p in module.parameters()) < 11_750_000  # resnet18: 11,689,512
