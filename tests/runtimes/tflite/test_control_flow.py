"""Control flow: ONNX If -> TFLite IF, Loop -> WHILE, from hand-made graphs and from torch.cond/while_loop."""

import numpy as np
import onnx
import pytest
import torch
from onnx import TensorProto, helper

from deploy.runtimes.tflite.emit import emit_tflite
from deploy.runtimes.tflite.session import load
from tests.runtimes.tflite.export_helpers import to_onnx
from tests.runtimes.tflite.helpers import assert_matches, graph_model

RNG = np.random.default_rng(4)


def test_if_with_captured_values_both_branches():
    then_graph = helper.make_graph([helper.make_node("Mul", ["x", "x"], ["t"])], "then", [],
                                   [helper.make_tensor_value_info("t", TensorProto.FLOAT, [3])])  # fmt: skip
    else_graph = helper.make_graph([helper.make_node("Sub", ["x", "y"], ["e"])], "else", [],
                                   [helper.make_tensor_value_info("e", TensorProto.FLOAT, [3])])  # fmt: skip
    nodes = [
        helper.make_node("ReduceSum", ["x"], ["s"], keepdims=0),
        helper.make_node("Greater", ["s", "zero"], ["c"]),
        helper.make_node("If", ["c"], ["z"], then_branch=then_graph, else_branch=else_graph),
    ]
    x, y = np.array([1, 2, 3], np.float32), np.array([4, 5, 6], np.float32)
    model = graph_model(nodes, {"x": x, "y": y}, ["z"], {"zero": np.float32(0)})
    for sign in (1, -1):
        info = assert_matches(model, {"x": sign * x, "y": y})
    assert info["ops"]["IF"] == 1


def test_loop_with_carried_and_scan_outputs():
    body = helper.make_graph(
        [
            helper.make_node("Add", ["acc_in", "x"], ["acc_out"]),
            helper.make_node("Identity", ["cond_in"], ["cond_out"]),
            helper.make_node("Mul", ["acc_out", "two"], ["scan"]),
        ],  # fmt: skip
        "body",
        [
            helper.make_tensor_value_info("i", TensorProto.INT64, []),
            helper.make_tensor_value_info("cond_in", TensorProto.BOOL, []),
            helper.make_tensor_value_info("acc_in", TensorProto.FLOAT, [2]),
        ],  # fmt: skip
        [
            helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []),
            helper.make_tensor_value_info("acc_out", TensorProto.FLOAT, [2]),
            helper.make_tensor_value_info("scan", TensorProto.FLOAT, [2]),
        ],  # fmt: skip
    )
    nodes = [helper.make_node("Loop", ["n", "keep", "init"], ["final", "stacked"], body=body)]
    x = RNG.standard_normal(2).astype(np.float32)
    model = graph_model(nodes, {"x": x, "n": np.array(4, np.int64)}, ["final", "stacked"],
                        {"keep": np.array(True), "init": np.zeros(2, np.float32), "two": np.float32(2)})  # fmt: skip
    info = assert_matches(model, {"x": x, "n": np.array(4, np.int64)})
    assert info["ops"]["WHILE"] == 1


class Branchy(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(16, 16)

    def forward(self, x):
        h = self.fc(x)
        return (
            torch.cond(h.mean() > 0, lambda h: torch.relu(h) * 2.0, lambda h: torch.tanh(h) - 1.0, (h,)) + x
        )


class Recurrent(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(8, 8)

    def forward(self, x):
        def cond(i, h):
            return i < x.shape[0]

        def body(i, h):
            row = torch.index_select(x, 0, i.reshape(1)).reshape(8)
            return i + 1, torch.tanh(self.fc(h) + row)

        _, h = torch._higher_order_ops.while_loop(cond, body, (torch.tensor(0), torch.zeros(8)))
        return h


def test_torch_cond_through_tflite(tmp_path):
    model = Branchy().eval()
    info = emit_tflite(to_onnx(model, (torch.randn(4, 16),)), tmp_path / "b.tflite")
    assert info["ops"]["IF"] == 1
    session = load(info["path"])
    for value in (3.0, -3.0):  # one input per branch
        x = torch.full((4, 16), value)
        np.testing.assert_allclose(
            session.run([x.numpy()])[0], model(x).detach().numpy(), rtol=1e-5, atol=1e-5
        )


def test_torch_while_loop_through_tflite(tmp_path):
    model = Recurrent().eval()
    x = torch.randn(5, 8)
    info = emit_tflite(to_onnx(model, (x,)), tmp_path / "w.tflite")
    assert info["ops"]["WHILE"] == 1
    fresh = torch.randn(5, 8)
    np.testing.assert_allclose(
        load(info["path"]).run([fresh.numpy()])[0], model(fresh).detach().numpy(), atol=1e-5
    )


class RecurrentOverDynamicSequence(torch.nn.Module):
    """An Elman RNN over a dynamic sequence, written the two ways a rewriter can write it."""

    def __init__(self, use_scan: bool):
        super().__init__()
        torch.manual_seed(0)
        self.use_scan = use_scan
        self.inp, self.rec = torch.nn.Linear(16, 32), torch.nn.Linear(32, 32)

    def forward(self, x):
        if self.use_scan:
            from torch._higher_order_ops.scan import scan

            def step(h, xt):
                h2 = torch.tanh(self.inp(xt) + self.rec(h))
                return h2, h2.clone()

            _, ys = scan(step, torch.zeros(x.shape[0], 32), x.transpose(0, 1))
            return ys.transpose(0, 1)

        def cond(t, h, out):
            return t < x.shape[1]

        def body(t, h, out):
            xt = torch.index_select(x, 1, t.reshape(1)).squeeze(1)
            h2 = torch.tanh(self.inp(xt) + self.rec(h))
            return t + 1, h2, out.index_copy(1, t.reshape(1), h2.unsqueeze(1))

        start = (torch.tensor(0), torch.zeros(x.shape[0], 32), torch.zeros(x.shape[0], x.shape[1], 32))
        return torch._higher_order_ops.while_loop(cond, body, start)[2]


@pytest.mark.parametrize(("use_scan", "loop_op"), [(True, "Scan"), (False, "Loop")])
def test_recurrence_over_dynamic_sequence(use_scan, loop_op, tmp_path):
    model = RecurrentOverDynamicSequence(use_scan).eval()
    seq = torch.export.Dim("seq", min=2, max=64)
    proto = to_onnx(model, (torch.randn(2, 8, 16),), ({1: seq},))
    assert loop_op in [n.op_type for n in proto.graph.node]
    session = load(emit_tflite(proto, tmp_path / "r.tflite")["path"])
    for length in (8, 3, 20):
        x = torch.randn(2, length, 16)
        np.testing.assert_allclose(session.run([x.numpy()])[0], model(x).detach().numpy(), atol=1e-5)


class ConvWhenPositive(torch.nn.Module):
    """An IF whose then branch convolves with kernel 5 (dilation 2: 9 frames) the frames it is given."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(3)
        self.conv = torch.nn.Conv1d(3, 2, kernel_size=5, dilation=2)

    def convolved(self, x):
        return self.conv(x.t().unsqueeze(0)).mean().reshape(1)

    def summed(self, x):
        return x.sum().reshape(1)

    def forward(self, x):
        return torch.cond(x.sum() > 0, self.convolved, self.summed, (x,))

    def reference(self, x):  # eager torch.cond traces both branches, which fails below 9 frames
        return self.convolved(x) if x.sum() > 0 else self.summed(x)


def test_an_if_branch_convolving_fewer_frames_than_its_window_still_prepares(tmp_path):
    # LiteRT prepares both branches at the run's sizes: at 4 frames the then branch's window (9)
    # does not fit, although only the else branch runs there (the input is padded, short_windows.py)
    model = ConvWhenPositive().eval()
    frames = torch.export.Dim("frames", min=11, max=64)
    proto = to_onnx(model, (torch.rand(16, 3),), ({0: frames},))
    session = load(emit_tflite(proto, tmp_path / "w.tflite")["path"])
    for length, sign in ((4, -1.0), (8, -1.0), (11, 1.0), (11, -1.0), (30, 1.0)):
        x = sign * torch.rand(length, 3)
        np.testing.assert_allclose(
            session.run([x.numpy()])[0], model.reference(x).detach().numpy(), atol=1e-5
        )


class TrendWhenLong(torch.nn.Module):
    """The then branch reads the last 8 and the first 6 samples against weights of those sizes."""

    def __init__(self):
        super().__init__()
        self.register_buffer("ramp", torch.arange(8, dtype=torch.float32) - 3.5)
        self.register_buffer("head", torch.linspace(1.0, 2.0, 6))

    def trend(self, x):
        return ((x[-8:] * self.ramp).sum() + (x[:6] * self.head).sum()).reshape(1)

    def last(self, x):
        return x[-1:].clone()

    def forward(self, x):
        return torch.cond(x.sum() > 0, self.trend, self.last, (x,))

    def reference(self, x):  # eager torch.cond traces both branches, which fails below 8 samples
        return self.trend(x) if x.sum() > 0 else self.last(x)


def test_an_if_branch_slicing_more_samples_than_the_run_has_still_prepares(tmp_path):
    # `x[-8:] * ramp` has a static size 8 in the then branch; at 3 samples LiteRT could not prepare it
    # (a size-3 slice times 8 weights) although only the else branch runs there (short_windows.py)
    model = TrendWhenLong().eval()
    samples = torch.export.Dim("samples", min=9, max=64)
    proto = to_onnx(model, (torch.rand(16),), ({0: samples},))
    session = load(emit_tflite(proto, tmp_path / "t.tflite")["path"])
    for length, sign in ((3, -1.0), (7, -1.0), (9, 1.0), (9, -1.0), (40, 1.0)):
        x = sign * torch.rand(length)
        np.testing.assert_allclose(
            session.run([x.numpy()])[0], model.reference(x).detach().numpy(), rtol=1e-5, atol=1e-5
        )


FORECAST = """
import torch

class Forecast(torch.nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.head = torch.nn.Linear(4, 1)

    def forward(self, prices):
        values = [prices[0]]
        for t in range(1, prices.shape[0]):
            if prices[t] < 0:
                break
            values.append(prices[t])
        window = torch.stack(values)[-5:]
        if window.shape[0] > 4:
            return self.head(window[1:] / window[:-1] - 1.0)
        return torch.zeros(1)

def model():
    return Forecast()

def example_inputs():
    return (torch.tensor([1.0, 1.1, 1.2, 1.1, 1.3, 1.4]),)

def dynamic_shapes():
    return ({0: torch.export.Dim("weeks", min=4, max=32)},)

def verify_inputs():
    return [
        (torch.tensor([1.0, 1.1, 1.2, 1.3]),),  # 4 values: the else branch
        (torch.tensor([1.0, 1.1, -1.0, 1.3, 1.2, 1.5]),),  # a break after 2 values
        (torch.arange(1.0, 21.0),),
    ]
"""


def test_an_if_branch_multiplying_a_run_time_sized_vector_by_weights_still_prepares(tmp_path, write_model):
    # `head(window[1:] / window[:-1])` needs 4 returns; at 4 weeks (3 returns) LiteRT could not
    # prepare the branch for "more than 4 values" although only the else branch runs there: the
    # returns are read at exactly the weights' 4 rows (short_windows.exact_extent)
    import deploy

    res = deploy.export(write_model(FORECAST), targets=["tflite"], out=tmp_path / "out")
    parity = res.artifacts["tflite"].parity
    assert parity.ok and parity.cases >= 4


KEPT_SLICES = """
import torch

class KeptSlices(torch.nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.conv = torch.nn.Sequential(
            torch.nn.Conv2d(1, 4, 3, padding=1), torch.nn.ReLU(), torch.nn.Conv2d(4, 4, 3, padding=1, stride=2)
        )

    def forward(self, volume):
        kept = []
        for s in range(volume.shape[0]):
            if volume[s].mean() > 0.5:
                continue
            kept.append(volume[s])
        if len(kept) == 0:
            return torch.zeros(4)
        return self.conv(torch.stack(kept)[:, None]).mean(dim=(0, 2, 3))

def model():
    return KeptSlices()

def example_inputs():
    return (torch.rand(5, 8, 8) * 0.9,)

def dynamic_shapes():
    return ({0: torch.export.Dim("slices", min=2, max=16)},)

def verify_inputs():
    return [(torch.rand(3, 8, 8) + 1.0,), (torch.rand(7, 8, 8) * 0.4,)]  # none kept; all kept
"""


def test_an_if_branch_convolving_a_batch_a_loop_filled_still_prepares_with_none(tmp_path, write_model):
    # with no slice kept LiteRT still prepares the branch for "some kept" at a batch of 0, which the
    # convolution cannot take: one zero image is added then and cut off again (short_windows.py)
    import deploy

    res = deploy.export(write_model(KEPT_SLICES), targets=["tflite"], out=tmp_path / "out")
    parity = res.artifacts["tflite"].parity
    assert parity.ok and parity.cases >= 3


def test_an_if_branch_with_a_linear_on_a_run_time_sized_row_still_prepares(tmp_path, write_model):
    # the same window read as one row (`[1, n]`): a Gemm with constant weights, FULLY_CONNECTED
    import deploy

    source = FORECAST.replace(
        "self.head(window[1:] / window[:-1] - 1.0)", "self.head((window[1:] / window[:-1] - 1.0)[None])[0]"
    )
    res = deploy.export(write_model(source), targets=["tflite"], out=tmp_path / "out")
    parity = res.artifacts["tflite"].parity
    assert parity.ok and parity.cases >= 4


LAST_TWENTY = """
import torch

class LastTwenty(torch.nn.Module):
    def forward(self, ids, weights):
        if ids.shape[0] > 20:  # one output shape at 2 or 19 values, two at 21
            ids, weights = ids[-20:], weights[-20:]
        else:
            ids, weights = ids * 2, weights + 1.0
        return (ids.float() * weights).sum(0, keepdim=True) + ids[:1].float()

def model():
    return LastTwenty()

def example_inputs():
    return (torch.randint(0, 64, (10,)), torch.rand(10))

def dynamic_shapes():
    n = torch.export.Dim("n", min=2, max=300)
    return ({0: n}, {0: n})
"""


def test_an_if_with_run_time_sized_outputs_stays_right_across_resizes(tmp_path, write_model):
    # LiteRT's IF chooses between a static and a dynamic evaluation at each Prepare; a choice that
    # flips between runs (static at 2, dynamic at 21, static at 19) wrote through a stale pointer
    # (to a buffer sized for 2 values): a wrong result at 19 or a corrupted heap (set46
    # shopping_session_next_item)
    import deploy

    path = write_model(LAST_TWENTY)
    result = deploy.export(path, targets=["tflite"], out=tmp_path / "out")
    session = load(result.artifacts["tflite"].path)
    for length in (2, 21, 10, 19, 40, 18, 3, 25):  # one interpreter, resized between runs
        g = torch.Generator().manual_seed(length)
        ids, weights = torch.randint(0, 64, (length,), generator=g), torch.rand(length, generator=g)
        kept, scale = (ids[-20:], weights[-20:]) if length > 20 else (ids * 2, weights + 1.0)
        expected = (kept.float() * scale).sum(0, keepdim=True) + kept[:1].float()
        actual = session.run([ids.numpy(), weights.numpy()])[0]
        np.testing.assert_allclose(actual, expected.numpy(), rtol=1e-5, atol=1e-5)


def _size_branch_model():
    """``x[-1] - x[-2] if len(x) < 6 else (x[-6:] * w).sum()``: the else branch is invalid below 6."""
    then_graph = helper.make_graph(
        [
            helper.make_node("Gather", ["x", "last"], ["a"]),
            helper.make_node("Gather", ["x", "before"], ["b"]),
            helper.make_node("Sub", ["a", "b"], ["t"]),
        ],
        "then",
        [],
        [helper.make_tensor_value_info("t", TensorProto.FLOAT, [])],
    )
    else_graph = helper.make_graph(
        [
            helper.make_node("Slice", ["x", "minus6", "end"], ["tail"]),
            helper.make_node("Mul", ["tail", "w"], ["weighted"]),
            helper.make_node("ReduceSum", ["weighted"], ["e"], keepdims=0),
        ],
        "else",
        [],
        [helper.make_tensor_value_info("e", TensorProto.FLOAT, [])],
    )
    nodes = [
        helper.make_node("Shape", ["x"], ["shape"]),
        helper.make_node("Gather", ["shape", "zero"], ["n"]),
        helper.make_node("Less", ["n", "six"], ["short"]),
        helper.make_node("If", ["short"], ["z"], then_branch=then_graph, else_branch=else_graph),
    ]
    constants = {
        "zero": np.array(0, np.int64),
        "six": np.array(6, np.int64),
        "last": np.array(-1, np.int64),
        "before": np.array(-2, np.int64),
        "minus6": np.array([-6], np.int64),
        "end": np.array([np.iinfo(np.int64).max], np.int64),
        "w": np.linspace(1.0, 2.0, 6).astype(np.float32),
    }
    inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n"])]
    outputs = [helper.make_tensor_value_info("z", TensorProto.FLOAT, [])]
    inits = [onnx.numpy_helper.from_array(v, k) for k, v in constants.items()]
    graph = helper.make_graph(nodes, "size_branch", inputs, outputs, inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)])


def test_an_if_on_a_size_prepares_only_the_branch_it_runs(tmp_path):
    # LiteRT's IF prepares both branches at the run's sizes: at 2 entries the else branch multiplies
    # 2 entries by 6 weights, although only the then branch runs there (the witness, control_flow.py)
    from tests.runtimes.tflite.helpers import reference

    model = _size_branch_model()
    session = load(emit_tflite(model, tmp_path / "s.tflite")["path"])
    for length in (2, 5, 6, 11, 3):
        x = RNG.standard_normal(length).astype(np.float32)
        expected = reference(model, {"x": x})[0]
        np.testing.assert_allclose(session.run([x])[0], expected, rtol=1e-5, atol=1e-5)
