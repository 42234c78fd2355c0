"""Numerical overcurrent protection relay (IEC inverse-time + instantaneous) (kind T).

Input: per-cycle RMS phase current in per-unit (T,) and harmonic ratios (T, 3)
(2nd, 3rd, 5th).  A small learned CT-saturation compensator corrects the measured
current.  The relay then steps through the cycles: above the instantaneous setting it
trips at once (early return); below pickup the time integrator resets; a high 2nd
harmonic (transformer inrush) restrains the time element; otherwise the IEC standard
inverse characteristic is integrated until it reaches 1 (trip, break).

constructs: 1 (if on tensor), 2 (return inside the loop), 5 (for over dynamic T),
            6 (continue / break on tensor conditions)
"""
import torch
import torch.nn as nn


class OvercurrentRelay(nn.Module):
    def __init__(self, pickup=1.2, instantaneous=8.0, tms=0.1, h2_restraint=0.15, cycle_s=0.02):
        super().__init__()
        self.ct_comp = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))
        self.pickup = pickup
        self.instantaneous = instantaneous
        self.tms = tms
        self.h2_restraint = h2_restraint
        self.cycle_s = cycle_s

    def forward(self, current, harmonics):
        corr = 1.0 + 0.05 * torch.tanh(self.ct_comp(torch.cat([harmonics, current.unsqueeze(1)], 1))).squeeze(1)
        current = current * corr

        integ = torch.zeros(())
        trip_cycle = torch.tensor(-1)
        for t in range(current.shape[0]):
            i = current[t]
            if i > self.instantaneous:
                return torch.ones(()), torch.tensor(t), integ
            if i < self.pickup:
                integ = torch.zeros(())
                continue
            if harmonics[t, 0] > self.h2_restraint:
                continue
            t_op = self.tms * 0.14 / (torch.pow(i / self.pickup, 0.02) - 1.0)
            integ = integ + self.cycle_s / t_op
            if integ >= 1.0:
                trip_cycle = torch.tensor(t)
                break
        return (trip_cycle >= 0).float(), trip_cycle, integ


def model():
    torch.manual_seed(310)
    return OvercurrentRelay().eval()


def _record(segments, h2_segments=()):
    """segments: list of (n_cycles, current_pu); h2_segments: (start, stop, ratio)."""
    cur = torch.cat([torch.full((n,), float(c)) for n, c in segments])
    T = cur.shape[0]
    cur = cur + 0.01 * torch.sin(torch.arange(T, dtype=torch.float32))
    h = torch.stack([torch.full((T,), 0.03), torch.full((T,), 0.02), torch.full((T,), 0.01)], 1)
    for a, b, r in h2_segments:
        h[a:b, 0] = r
    return cur, h


def example_inputs():
    return _record([(5, 1.0), (40, 5.0), (5, 1.0)])   # fault at 5 pu: time trip after ~20 cycles


def dynamic_shapes():
    T = torch.export.Dim("cycles", min=4, max=1024)
    return ({0: T}, {0: T})


def verify_inputs():
    return [
        example_inputs(),                                    # reset-continue, integrate, break (time trip)
        _record([(4, 1.0), (6, 12.0)]),                      # instantaneous element: return inside loop
        _record([(10, 1.0), (10, 3.0), (10, 1.0), (10, 3.0)]),  # two short faults with reset between: no trip, loop ends
        _record([(3, 1.0), (30, 4.0), (40, 4.0)], h2_segments=[(3, 33, 0.4)]),  # inrush restrained 30 cycles, then trips
        _record([(8, 0.9)]),                                 # load current only: every cycle 'continue'
    ]
