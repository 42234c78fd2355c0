"""Adaptive Computation Time (Graves 2016) recurrent controller: ponders each input until the halting mass is spent."""

import torch
from torch import nn

IN, HID, OUT = 8, 32, 4


class ACTCell(nn.Module):
    def __init__(self, max_ponder: int = 8, eps: float = 0.01):
        super().__init__()
        self.cell = nn.GRUCell(IN + 1, HID)
        self.halt = nn.Linear(HID + IN, 1)
        self.max_ponder = max_ponder
        self.eps = eps

    def forward(self, x, h):
        b = x.shape[0]
        halting = torch.zeros(b)
        remainders = torch.zeros(b)
        n_updates = torch.zeros(b)
        acc_h = torch.zeros_like(h)
        step = torch.tensor(0)
        while (halting < 1 - self.eps).any() and step < self.max_ponder:
            flag = torch.zeros(b, 1) if step > 0 else torch.ones(b, 1)
            h = self.cell(torch.cat([x, flag], dim=1), h)
            p = torch.sigmoid(self.halt(torch.cat([h, x], dim=1))).squeeze(1)
            running = halting < 1 - self.eps
            new_halted = (halting + p >= 1 - self.eps) & running
            still = (halting + p < 1 - self.eps) & running
            if step == self.max_ponder - 1:
                new_halted = running
                still = torch.zeros_like(running)
            halting = halting + p * still.float()
            remainders = remainders + new_halted.float() * (1 - halting)
            halting = halting + new_halted.float() * remainders
            n_updates = n_updates + running.float()
            w = (p * still.float() + new_halted.float() * remainders).unsqueeze(1)
            acc_h = acc_h + w * h
            step = step + 1
        return acc_h, n_updates + remainders


class ACTController(nn.Module):
    def __init__(self):
        super().__init__()
        self.act = ACTCell()
        self.readout = nn.Linear(HID, OUT)

    def forward(self, xs):
        h = torch.zeros(xs.shape[0], HID)
        outs, costs = [], []
        for t in range(xs.shape[1]):
            h, cost = self.act(xs[:, t], h)
            outs.append(self.readout(h))
            costs.append(cost)
        return torch.stack(outs, 1), torch.stack(costs, 1).mean()


def model():
    torch.manual_seed(0)
    net = ACTController()
    with torch.no_grad():
        nn.init.normal_(net.act.halt.weight[:, HID:], std=1.0)
        net.act.halt.bias.fill_(-1.0)
    return net.eval()


def _seq(seed, length, batch=2, drive=None):
    """Random inputs; `drive` pushes each step towards fast (+) or slow (-) halting, one value per sample."""
    g = torch.Generator().manual_seed(seed)
    xs = torch.randn(batch, length, IN, generator=g) * 0.3
    if drive is not None:
        direction = torch.sign(model().act.halt.weight[0, HID:]).detach()
        xs = xs + torch.tensor(drive).reshape(batch, 1, 1) * direction
    return (xs,)


def example_inputs():
    return _seq(1, 5)


def dynamic_shapes():
    return ({1: torch.export.Dim("steps", min=1, max=50)},)


def verify_inputs():
    return [
        _seq(2, 3, drive=[3.0, 3.0]),  # halts after one ponder step everywhere
        _seq(3, 4, drive=[-3.0, -3.0]),  # never reaches the halting mass: forced halt at max_ponder
        _seq(4, 6, drive=[3.0, -3.0]),  # one sample halts early, the other is forced
        _seq(5, 1),  # a single step, a few ponder steps
        _seq(6, 50),
    ]
