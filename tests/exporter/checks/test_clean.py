"""A clean model is ok on every target."""

import pytest

from deploy.exporter.checks import TARGETS, check_ops

from .conftest import fixture


@pytest.mark.parametrize("target", TARGETS)
def test_clean_model_is_ok_everywhere(target):
    report = check_ops(fixture("clean"), target=target)
    assert report.ok, report.to_dict()
    assert report.ops and all(row.count >= 1 for row in report.ops)
