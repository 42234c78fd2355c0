"""A stand-in runtime for test_isolated.py: doubles its input, raises on NaN, aborts the process on
a negative sum (as a native kernel writing out of bounds does), refuses a path naming 'broken'."""

from __future__ import annotations

import os

import numpy as np

from deploy.errors import InputError


class _Session:
    runtime = "fake"

    def run(self, inputs):
        if np.isnan(inputs[0]).any():
            raise ValueError("NaN in the input")
        if inputs[0].sum() < 0:
            os.abort()
        return [inputs[0] * 2]


def load(path, **_):
    if "broken" in str(path):
        raise InputError("cannot load this model", file=str(path))
    return _Session()
