"""--target onnx: aten ops torch.onnx cannot translate, and ONNX ops onnxruntime's CPU provider cannot run."""

import onnx
import pytest

from deploy.exporter.checks import check_ops
from deploy.exporter.checks.report import format_where
from deploy.exporter.checks.sources import exported_program, to_onnx

from .conftest import fixture, op_line, unsupported


def _where(name: str) -> list[str]:
    return [format_where((str(fixture(name)), op_line(name)))]


def test_untranslatable_aten_op_is_reported_with_its_line_not_raised():
    report = check_ops(fixture("cummax"), target="onnx")
    bad = unsupported(report)
    assert list(bad) == ["aten.cummax.default"]
    row = bad["aten.cummax.default"]
    assert "no ONNX translation" in row.reason and row.suggestion
    assert row.where == _where("cummax")
    assert any(r.op == "aten.conv2d.default" and r.supported for r in report.ops)


def test_op_without_an_onnxruntime_cpu_kernel_is_named():
    report = check_ops(fixture("erf_double"), target="onnx")
    bad = unsupported(report)
    assert list(bad) == ["Erf"]
    assert "double" in bad["Erf"].reason
    assert bad["Erf"].where == _where("erf_double")


@pytest.fixture(scope="module")
def erf_double_onnx(tmp_path_factory):
    path = tmp_path_factory.mktemp("onnx") / "erf_double.onnx"
    onnx.save(to_onnx(exported_program(fixture("erf_double"), {})), str(path))
    return path


def test_onnx_file_given_directly_keeps_the_source_lines(erf_double_onnx):
    report = check_ops(erf_double_onnx, target="onnx")
    assert report.ok is False
    assert unsupported(report)["Erf"].where == _where("erf_double")


def test_onnx_file_runs_on_targets_that_have_the_op(erf_double_onnx):
    assert check_ops(erf_double_onnx, target="coreml").ok


def test_a_size_bound_through_a_stride_counts_as_translatable():
    """Inside a scan over a length two inputs share, torch.export binds the length through
    ``sym_stride`` of an input; deploy's ONNX emission translates it (a product of later sizes),
    so the check must not refuse the model."""
    from deploy.exporter.checks.onnx_target import translation_occurrences
    from deploy.exporter.export import export_program
    from deploy.rewriters import rewrite_module
    from tests.rewriters.models.iteration import CASES

    case = next(c for c in CASES if c.name == "inputs_sharing_a_length_read_in_a_scan")
    module = rewrite_module(case.model(), case.example, case.dynamic_shapes).module
    ep, _ = export_program(module, case.example, case.dynamic_shapes)
    occurrences, _ = translation_occurrences(ep)
    assert any(o.op == "aten.sym_stride.int" for o in occurrences), "the program no longer binds a stride"
    assert all(o.supported for o in occurrences), [o for o in occurrences if not o.supported]
