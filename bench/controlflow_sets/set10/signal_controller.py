"""Traffic-signal controller for a 4-way intersection, run over a horizon of
per-step arrival counts. Phases: 0 NS green, 1 NS yellow, 2 EW green, 3 EW yellow.
Actuated logic (min/max green, queue imbalance) plus a learned extension value,
and emergency-vehicle preemption towards NS."""
import torch
from torch import nn


class SignalController(nn.Module):
    def __init__(self):
        super().__init__()
        self.policy = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))
        self.min_green = 3
        self.max_green = 12
        self.yellow = 2
        self.sat_flow = 2          # vehicles served per step per green approach
        green_ns = torch.tensor([1, 1, 0, 0])
        self.register_buffer("serve_ns", green_ns * self.sat_flow)
        self.register_buffer("serve_ew", (1 - green_ns) * self.sat_flow)

    def extension_value(self, ns, ew, timer, phase):
        feat = torch.stack([ns, ew, timer, phase]).float() / 10.0
        return self.policy(feat)[0] + 0.05 * (ns - ew).float() * (1 - phase)

    def forward(self, arrivals, emergency):
        # arrivals: (T, 4) int64 [N, S, E, W]; emergency: (T,) int64, 1 = vehicle on NS
        queues = torch.zeros(4, dtype=torch.long)
        phase = torch.tensor(0)
        timer = torch.tensor(0)
        phases, values = [], []
        for t in range(arrivals.shape[0]):
            queues = queues + arrivals[t]
            ns = queues[0] + queues[1]
            ew = queues[2] + queues[3]
            if emergency[t] == 1 and phase == 2:
                # preempt: go to EW yellow immediately, skip the normal logic
                phase = torch.tensor(3)
                timer = torch.tensor(0)
                phases.append(phase)
                values.append(torch.zeros(()))
                continue
            v = self.extension_value(ns, ew, timer, phase)
            if phase == 0 or phase == 2:
                serve = self.serve_ns if phase == 0 else self.serve_ew
                queues = (queues - serve).clamp(min=0)
                mine = ns if phase == 0 else ew
                other = ew if phase == 0 else ns
                if timer >= self.max_green or (timer >= self.min_green and (other > 2 * mine or v < 0.0)):
                    phase = phase + 1
                    timer = torch.tensor(0)
                else:
                    timer = timer + 1
            elif timer >= self.yellow:
                phase = (phase + 1) % 4
                timer = torch.tensor(0)
            else:
                timer = timer + 1
            phases.append(phase)
            values.append(v)
        return torch.stack(phases), queues, torch.stack(values)


def model():
    torch.manual_seed(0)
    return SignalController().eval()


def _arrivals(T, rates, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.rand(T, 4, generator=g) < torch.tensor(rates)).long() * torch.randint(1, 3, (T, 4), generator=g)


def example_inputs():
    return (_arrivals(30, [0.5, 0.5, 0.3, 0.3], 1), torch.zeros(30, dtype=torch.long))


def dynamic_shapes():
    T = torch.export.Dim("T", min=2, max=600)
    return ({0: T}, {0: T})


def verify_inputs():
    em = torch.zeros(40, dtype=torch.long)
    em[18:20] = 1
    return [
        (_arrivals(40, [0.1, 0.1, 0.9, 0.9], 2), em),          # heavy EW, emergency on NS
        (_arrivals(60, [0.9, 0.9, 0.05, 0.05], 3), torch.zeros(60, dtype=torch.long)),
        (_arrivals(3, [0.5, 0.5, 0.5, 0.5], 4), torch.ones(3, dtype=torch.long)),
    ]
