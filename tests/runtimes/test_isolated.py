"""A session in a child process: its outputs, its errors, and its crashes, which deploy survives."""

from __future__ import annotations

import numpy as np
import pytest

from deploy.errors import InputError
from deploy.runtimes.isolated import IsolatedSession, RuntimeCrashed

FAKE = "tests.runtimes.fake_runtime"


def test_outputs_errors_and_a_crash_of_the_runtime_process(tmp_path):
    session = IsolatedSession(tmp_path / "m.bin", loader=FAKE)
    assert session.runtime == "fake"
    np.testing.assert_array_equal(session.run([np.arange(3.0)])[0], [0.0, 2.0, 4.0])
    with pytest.raises(ValueError, match="NaN in the input"):
        session.run([np.array([np.nan])])
    with pytest.raises(RuntimeCrashed, match="signal 6"):
        session.run([np.array([-1.0])])
    np.testing.assert_array_equal(session.run([np.ones(2)])[0], [2.0, 2.0])  # a new worker
    session.close()


def test_an_artifact_the_runtime_refuses_is_an_input_error_naming_it(tmp_path):
    with pytest.raises(InputError, match="cannot load this model") as info:
        IsolatedSession(tmp_path / "broken.bin", loader=FAKE)
    assert info.value.file == str(tmp_path / "broken.bin")
