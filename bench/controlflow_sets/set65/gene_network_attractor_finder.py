"""Boolean gene-regulatory network: find the attractor reached from an initial expression state.

Genes are ON/OFF.  Each synchronous step a gene is ON when its signed regulatory input
(W @ state, +1 activation / -1 repression) plus its basal drive is positive.  Gene 0 is the
external input signal and is held at its initial value (a configuration choice of the study).
The simulator keeps a Python list of visited states and stops at the first repeated state: a
fixed point (period 1) or a limit cycle.  If no state repeats within the step budget the
trajectory is summarised instead.  The average activity over the attractor and a small
phenotype head are returned.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class AttractorFinder(nn.Module):
    def __init__(self, max_steps=12, clamp_input_gene=True):
        super().__init__()
        self.max_steps = max_steps
        self.clamp_input_gene = clamp_input_gene
        self.phenotype = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 2))

    def _step(self, W, basal, state):
        new = ((W @ state + basal) > 0).float()
        if self.clamp_input_gene:  # static
            new = torch.cat([state[:1], new[1:]])
        return new

    def _find_repeat(self, visited, state):
        for k in range(len(visited)):
            if torch.equal(visited[k], state):
                return k
        return -1

    def forward(self, W, basal, x0):
        state = (x0 > 0.5).float()
        if not state.any() and not (basal > 0).any():
            # silent network without basal expression stays silent
            return torch.zeros_like(x0), self.phenotype(torch.tensor([1.0, 0.0, 0.0]))

        visited = [state]
        start = -1
        while len(visited) <= self.max_steps:
            state = self._step(W, basal, state)
            start = self._find_repeat(visited, state)
            if start >= 0:
                break
            visited.append(state)

        if start < 0:
            period = 0
            orbit = torch.stack(visited)
            transient = len(visited)
        else:
            period = len(visited) - start
            orbit = torch.stack(visited[start:])
            transient = start
        activity = orbit.mean(0)
        summary = torch.tensor([float(period), float(transient) / self.max_steps, 0.0]) \
            + torch.stack([torch.zeros(()), torch.zeros(()), activity.mean()])
        return activity, self.phenotype(summary)


def model():
    torch.manual_seed(6513)
    return AttractorFinder().eval()


def _ring(g, sign=-1.0):
    """Repression ring over genes 1..g-1 (gene 0 is the unconnected input signal)."""
    W = torch.zeros(g, g)
    for i in range(1, g):
        W[i, i - 1 if i > 1 else g - 1] = sign
    return W


def example_inputs():
    # 5-gene network: gene 0 (signal) activates 1, 1 activates 2 and 3, 3 represses 4, 2 represses 1
    W = torch.zeros(5, 5)
    W[1, 0] = 1.0
    W[2, 1] = 1.0
    W[3, 1] = 1.0
    W[4, 3] = -1.0
    W[1, 2] = -1.0
    basal = torch.tensor([-0.5, -0.5, -0.5, -0.5, 0.5])
    x0 = torch.tensor([0.9, 0.1, 0.0, 0.2, 0.1])
    return (W, basal, x0)


def dynamic_shapes():
    genes = Dim("genes", min=3, max=64)
    return ({0: genes, 1: genes}, {0: genes}, {0: genes})


def verify_inputs():
    W4 = _ring(4)
    W10 = _ring(10)
    Wfix = torch.zeros(4, 4)
    Wfix[1, 0] = 1.0
    Wfix[2, 1] = 1.0
    Wfix[3, 2] = 1.0
    return [
        example_inputs(),   # signal ON, negative feedback 1 -> 2 -| 1: initial state lies on a period-4 limit cycle
        # all genes OFF and no basal drive: early return
        (Wfix, torch.full((4,), -0.5), torch.zeros(4)),
        # activation cascade 0 -> 1 -> 2 -> 3: transient of 3 steps into an all-ON fixed point
        (Wfix, torch.full((4,), -0.5), torch.tensor([1.0, 0.0, 0.0, 0.0])),
        # cascade already fully ON: initial state is a fixed point (repeat found at k = 0)
        (Wfix, torch.full((4,), -0.5), torch.ones(4)),
        # repressilator on genes 1-3: limit cycle of period 6
        (W4, torch.full((4,), 0.5), torch.tensor([1.0, 1.0, 0.0, 0.0])),
        # all genes OFF but basal drive present: no early return, ring wakes up into the cycle
        (W4, torch.full((4,), 0.5), torch.zeros(4)),
        # 9-gene repression ring: orbit (period 18) longer than the 12-step budget -> no attractor found
        (W10, torch.full((10,), 0.5), torch.tensor([0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0])),
    ]
