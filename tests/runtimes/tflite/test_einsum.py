"""Einsum: broadcast products and one SUM, for contractions, outer products, batch products and
transposes (operands given as inputs or as constants)."""

import numpy as np
import pytest
from onnx import helper

from tests.runtimes.tflite.helpers import assert_matches, graph_model

RNG = np.random.default_rng(7)


@pytest.mark.parametrize(
    ("equation", "shapes"),
    [
        ("c,chw->hw", [(3,), (3, 5, 6)]),  # a colour transform of an image
        ("bqd,bkd->bqk", [(2, 4, 8), (2, 5, 8)]),  # attention scores
        ("ij,jk->ik", [(4, 3), (3, 5)]),
        ("i,j->ij", [(4,), (3,)]),  # outer product: nothing summed
        ("ij->ji", [(4, 3)]),
        ("ij->", [(4, 3)]),
        ("bij,bjk", [(2, 3, 4), (2, 4, 5)]),  # implicit output: "bik"
    ],
)
def test_einsum_matches_onnx_runtime(equation, shapes):
    names = [f"x{i}" for i in range(len(shapes))]
    feeds = {n: RNG.standard_normal(s).astype(np.float32) for n, s in zip(names, shapes)}
    node = helper.make_node("Einsum", names, ["y"], equation=equation)
    info = assert_matches(graph_model([node], feeds, ["y"]), feeds, atol=1e-5)
    assert "EINSUM" not in str(info["ops"])


def test_einsum_with_a_constant_operand():
    weights = np.array([0.2126, 0.7152, 0.0722], dtype=np.float32)
    image = RNG.random((3, 4, 5)).astype(np.float32)
    node = helper.make_node("Einsum", ["w", "x"], ["y"], equation="c,chw->hw")
    assert_matches(graph_model([node], {"x": image}, ["y"], {"w": weights}), {"x": image}, atol=1e-6)
