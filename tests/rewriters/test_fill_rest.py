"""A list padded for the iterations left before a `break` (passes/fill_rest.py), with a padding
value the loop computes (no value before it) beside a list the loop reads back, through the whole
export: the value is kept in a slot when the loop breaks, so no iteration is peeled (which ran a
cond that appends to a plain Python list, refused inside a graph op)."""

from __future__ import annotations

import deploy

WEIGHT_GAIN = """
import torch

class WeightGainAlarm(torch.nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.score = torch.nn.Linear(2, 1)

    def forward(self, weights, present):
        n = weights.shape[0]
        scores = [torch.zeros(())]
        history = [weights[0]]
        for t in range(1, n):
            if present[t] < 0.5:
                scores.append(torch.zeros(()))
                continue
            w = weights[t]
            gain = w - torch.stack(history[-3:]).min()
            s = torch.sigmoid(self.score(torch.stack([gain, w / 100.0])))[0]
            scores.append(s)
            if gain > 2.0:
                scores.extend([s] * (n - t - 1))
                break
            history.append(w)
        return torch.stack(scores)

def model():
    return WeightGainAlarm().eval()

def example_inputs():
    return (torch.tensor([80.0, 80.5, 80.2, 83.0, 83.1, 83.0]), torch.tensor([1.0, 1.0, 0.0, 1.0, 1.0, 1.0]))

def dynamic_shapes():
    days = torch.export.Dim("days", min=2, max=32)
    return ({0: days}, {0: days})

def verify_inputs():
    return [
        (torch.tensor([80.0, 80.1]), torch.tensor([1.0, 1.0])),
        (torch.tensor([80.0, 85.0]), torch.tensor([1.0, 1.0])),
        (torch.tensor([80.0, 80.0, 79.0, 82.5, 80.0, 80.0, 80.0]), torch.ones(7)),
        (torch.tensor([80.0, 90.0, 90.0]), torch.tensor([1.0, 0.0, 0.0])),
    ]
"""


def test_a_padding_value_the_loop_computes_beside_a_list_it_reads(tmp_path, write_model):
    res = deploy.export(write_model(WEIGHT_GAIN), targets=["onnx"], out=tmp_path / "out")
    parity = res.artifacts["onnx"].parity
    assert parity.ok and parity.cases >= 5
