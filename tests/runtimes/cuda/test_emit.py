"""emit_pt2: the cpu path compiled for real, the cuda path refused cleanly without a GPU."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from deploy.errors import InputError, NotDeployableError
from deploy.runtimes.cuda.emit import (
    check_target_available,
    emit_pt2,
    error_summary,
    move_to_device,
    op_histogram,
)
from deploy.runtimes.cuda.package import read_metadata

no_cuda = pytest.mark.skipif(torch.cuda.is_available(), reason="checks the refusal on a machine without CUDA")


def test_cpu_package_written_atomically(cpu_package):
    _, _, info = cpu_package
    path = Path(info["path"])
    assert path.name == "model.cpu.pt2"
    assert info["bytes"] == path.stat().st_size > 0
    assert info["seconds"] > 0
    assert [p.name for p in path.parent.iterdir()] == ["model.cpu.pt2"]  # no temp file left
    assert read_metadata(path)["AOTI_DEVICE_KEY"] == "cpu"


def test_cpu_package_matches_eager_on_new_batch_sizes(cpu_package):
    model, _, info = cpu_package
    compiled = torch._inductor.aoti_load_package(info["path"])
    torch.manual_seed(1)
    for batch in (1, 5, 17):  # the export saw batch 2 only
        x = torch.randn(batch, 3, 16, 16)
        with torch.no_grad():
            torch.testing.assert_close(compiled(x), model(x), rtol=1e-4, atol=1e-6)


def test_op_histogram_counts_the_graph(cpu_package):
    _, program, info = cpu_package
    assert info["ops"] == op_histogram(program)
    assert info["ops"]["conv2d.default"] == 1
    assert info["ops"]["linear.default"] == 1


def test_move_to_device_leaves_the_exporters_program_alone(cpu_package):
    _, program, _ = cpu_package
    moved = move_to_device(program, "meta")
    assert all(t.device.type == "meta" for t in moved.state_dict.values())
    assert all(t.device.type == "cpu" for t in program.state_dict.values())


@no_cuda
def test_cuda_target_refused_before_any_work(tmp_path):
    out = tmp_path / "model.cuda.pt2"
    with pytest.raises(InputError, match="CUDA") as caught:
        emit_pt2(object(), out, device="cuda")  # not even a program: nothing is touched before the check
    assert caught.value.exit_code == 2
    assert not out.exists() and list(tmp_path.iterdir()) == []


@no_cuda
def test_check_target_available_names_cuda():
    with pytest.raises(InputError, match="CUDA"):
        check_target_available("cuda")


def test_check_target_available_for_cpu_and_unknown():
    check_target_available("cpu")  # g++ is present here
    with pytest.raises(InputError, match="expected 'cuda' or 'cpu'"):
        check_target_available("tpu")


def test_compile_failure_is_not_deployable_and_leaves_nothing(cpu_package, tmp_path):
    _, program, _ = cpu_package
    out = tmp_path / "model.cpu.pt2"
    with pytest.raises(NotDeployableError, match="AOTInductor could not compile") as caught:
        emit_pt2(program, out, device="cpu", configs={"no_such_inductor_option": True})
    assert caught.value.exit_code == 1
    assert list(tmp_path.iterdir()) == []


def _lower_scan() -> None:
    assert 1 + 1 == 3  # a bare assert, as Inductor's lowerings have


def test_error_without_a_message_names_the_operator_and_where_it_was_raised():
    """Inductor reports a bare assert while lowering as "AssertionError:" + the operator: say both and where."""
    try:
        try:
            _lower_scan()
        except AssertionError as inner:
            raise RuntimeError("AssertionError: \n  target: higher_order.scan\n  args[0]: (x,)") from inner
    except RuntimeError as exc:
        summary = error_summary(exc)
    assert summary.startswith("AssertionError: target: higher_order.scan (raised at test_emit.py:")
    assert summary.endswith(" in _lower_scan)")
    assert error_summary(ValueError("bad shape\nmore")) == "bad shape"
    assert error_summary(ValueError("g++ failed\nx.cpp:1: error: no such type")) == (
        "g++ failed (x.cpp:1: error: no such type)"
    )
