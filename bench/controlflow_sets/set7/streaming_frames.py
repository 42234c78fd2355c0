"""Streaming audio enhancer: a submodule steps over frames of a dynamic-length stream.

for over range(x.shape[1]) (dynamic), `continue` on a quiet frame (tensor predicate), list.append + stack.
"""

import torch
from torch import nn

F_IN, STATE = 40, 48


class StreamCell(nn.Module):
    def __init__(self):
        super().__init__()
        self.gate = nn.Linear(F_IN + STATE, STATE)
        self.cand = nn.Linear(F_IN + STATE, STATE)

    def forward(self, frame, state):
        z = torch.cat([frame, state], dim=-1)
        g = torch.sigmoid(self.gate(z))
        return g * state + (1 - g) * torch.tanh(self.cand(z))


class StreamingEnhancer(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = StreamCell()
        self.mask_head = nn.Linear(STATE, F_IN)
        self.floor = 1e-3

    def forward(self, spec):
        state = torch.zeros(spec.shape[0], STATE)
        outs = []
        for t in range(spec.shape[1]):
            frame = spec[:, t]
            if frame.abs().mean() < self.floor:
                outs.append(frame * 0.0)
                continue
            state = self.cell(frame, state)
            outs.append(frame * torch.sigmoid(self.mask_head(state)))
        return torch.stack(outs, dim=1)


def model():
    torch.manual_seed(0)
    return StreamingEnhancer().eval()


def example_inputs():
    torch.manual_seed(1)
    return (torch.rand(1, 16, F_IN),)


def dynamic_shapes():
    return ({1: torch.export.Dim("time", min=1, max=128)},)


def verify_inputs():
    torch.manual_seed(4)
    gappy = torch.rand(1, 30, F_IN)
    gappy[:, 5:9] = 0.0
    gappy[:, 20] = 1e-5
    return [
        (gappy,),  # quiet frames hit continue, loud frames update state
        (torch.rand(1, 1, F_IN),),  # single loud frame
        (torch.zeros(1, 3, F_IN),),  # all frames quiet: continue every step
    ]
