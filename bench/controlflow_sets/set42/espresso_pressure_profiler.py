"""Espresso machine pump controller with pressure profiling.

The group-head pressure (bar) and flow-meter (ml/s) are sampled at 10 Hz. The
shot runs a small state machine: low-duty pre-infusion until the puck is
saturated (pressure built up while flow has dropped), then extraction where a
learned controller sets the pump duty to track the target pressure profile
(halving it when channeling is detected), and finally the pump stops when the
target beverage weight is reached.

Kind: T. Constructs: 1, 2, 3, 5, 9.
"""
import torch
from torch import nn
from torch.export import Dim

PREINFUSION, EXTRACTION, DONE = 0, 1, 2


class EspressoProfiler(nn.Module):
    def __init__(self, target_yield=36.0, flat_profile=False, dt=0.1):
        super().__init__()
        self.controller = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))
        self.register_buffer("preinfusion_duty", torch.tensor(0.3))
        self.target_yield = target_yield
        self.flat_profile = flat_profile
        self.dt = dt

    def forward(self, pressure, flow):
        phase = PREINFUSION
        shot_weight = pressure.new_zeros(())
        duties, phases = [], []
        for t in range(pressure.shape[0]):
            p, q = pressure[t], flow[t]
            shot_weight = shot_weight + q * self.dt
            if phase == PREINFUSION:
                duty = self.preinfusion_duty
                if p > 2.0 and q < 1.0:
                    phase = EXTRACTION  # puck saturated
            elif phase == EXTRACTION:
                progress = (shot_weight / self.target_yield).clamp(max=1.0)
                target = torch.full_like(p, 9.0) if self.flat_profile else 9.0 - 3.0 * progress
                err = (target - p) / 9.0
                duty = torch.sigmoid(self.controller(torch.stack([err, p / 9.0, q / 4.0, progress])))[0]
                if q > 3.0 or (t > 0 and q - flow[t - 1] > 1.0):
                    duty = duty * 0.5  # channeling: back off
                if shot_weight > self.target_yield:
                    phase = DONE
            else:
                duty = torch.zeros_like(p)
            duties.append(duty)
            phases.append(phase)
        return torch.stack(duties), torch.tensor(phases, dtype=torch.long), shot_weight.reshape(1)


def model():
    torch.manual_seed(4203)
    return EspressoProfiler().eval()


def _shot(n_pre, n_ext, n_tail, ext_flow=2.19, spike_at=None, spike=0.0, pre_flow=3.0, pre_p=3.0):
    """Synthetic pressure/flow traces: pre-infusion, extraction, tail."""
    p = torch.cat([torch.linspace(0.2, pre_p, n_pre), torch.full((n_ext,), 8.5), torch.full((n_tail,), 6.0)])
    q = torch.cat([torch.linspace(pre_flow, 0.5, n_pre), torch.full((n_ext,), ext_flow),
                   torch.full((n_tail,), 1.7)])
    if spike_at is not None:
        q[spike_at] = q[spike_at] + spike
    return p, q


def example_inputs():
    # 8 s pre-infusion, 20 s extraction at ~2.2 ml/s -> 36 g reached, then the pump is off
    return _shot(80, 200, 20)


def dynamic_shapes():
    t = Dim("samples", min=2, max=400)
    return ({0: t}, {0: t})


def verify_inputs():
    return [
        example_inputs(),                          # all three phases, no channeling
        _shot(30, 0, 0, pre_p=1.6),                # pressure never builds: stays in pre-infusion
        _shot(20, 60, 0, spike_at=40, spike=1.5),  # channeling: sudden flow jump (> 1 ml/s)
        _shot(20, 60, 0, ext_flow=3.5),            # channeling: flow above 3 ml/s throughout
        _shot(3, 2, 0),                            # very short trace
    ]
