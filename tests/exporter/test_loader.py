"""Loading model.py files: the convention, renamed functions, and every bad-input error."""

from __future__ import annotations

import pytest
import torch

from deploy.errors import InputError
from deploy.exporter.loader import load_model_file

GOOD = """
import torch
def make():
    return torch.nn.Linear(3, 2)
def inputs():
    return (torch.randn(1, 3),)
def verify_inputs():
    return [(torch.ones(2, 3),)]
"""


def test_loads_renamed_functions_and_verify_inputs(write_model):
    loaded = load_model_file(write_model(GOOD), model_fn="make", inputs_fn="inputs")
    assert isinstance(loaded.module, torch.nn.Linear)
    assert loaded.example_inputs[0].shape == (1, 3)
    assert len(loaded.verify_inputs) == 1
    assert loaded.name == "model"


def test_missing_file():
    with pytest.raises(InputError, match="no such file") as info:
        load_model_file("/no/such/model.py")
    assert info.value.exit_code == 2


def test_syntax_error_names_file_and_line(write_model):
    path = write_model("import torch\n\ndef model(:\n    pass\n")
    with pytest.raises(InputError, match="syntax error") as info:
        load_model_file(path)
    assert info.value.file == str(path) and info.value.line == 3


def test_missing_model_function(write_model):
    with pytest.raises(InputError, match=r"no model\(\) function"):
        load_model_file(write_model("def example_inputs():\n    return ()\n"))


def test_model_raising_names_line_of_the_raise(write_model):
    path = write_model(
        """
        import torch
        def model():
            config = {}
            return torch.nn.Linear(config["width"], 2)
        def example_inputs():
            return (torch.randn(1, 3),)
        """
    )
    with pytest.raises(InputError, match=r"model\(\) raised KeyError") as info:
        load_model_file(path)
    assert info.value.file == str(path.resolve()) and info.value.line == 5


@pytest.mark.parametrize("inputs", ["[1, 2]", "'text'", "()", "(torch.randn(2), 3)"])
def test_inputs_of_the_wrong_type(write_model, inputs):
    path = write_model(
        f"import torch\ndef model():\n    return torch.nn.Identity()\ndef example_inputs():\n    return {inputs}\n"
    )
    with pytest.raises(InputError, match="example_inputs"):
        load_model_file(path)


def test_model_returning_a_non_module(write_model):
    path = write_model(
        "import torch\ndef model():\n    return 3\ndef example_inputs():\n    return (torch.ones(1),)\n"
    )
    with pytest.raises(InputError, match="must return a torch.nn.Module"):
        load_model_file(path)
