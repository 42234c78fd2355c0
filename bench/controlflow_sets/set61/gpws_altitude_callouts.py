"""Ground-proximity warning: radio-altitude callouts and GPWS alerts.

Runs over the radio-altimeter / vertical-speed / gear samples of an approach
and emits (sample index, code) events: automatic altitude callouts (each
once, several may be passed between two samples), Mode 1 "SINK RATE" /
"PULL UP" from a descent-rate envelope, and Mode 4 "TOO LOW GEAR" (once).
Climbing samples (take-off, go-around) are ignored and processing stops at
touchdown.  The callout table depends on the airframe profile.

KIND X.  Constructs: 1 (if / ternary on tensor comparisons), 2 (early
return with no events; helper returning inside branches), 3 (and/not over
tensor predicates and Python flags), 4 (while over a Python list with a
tensor condition), 5 (for over the dynamic number of samples, append +
torch.stack), 6 (break at touchdown, continue while climbing), 7 (envelope
helper with its own branch), 9 (airframe profile config, static tables).
"""
import torch
import torch.nn as nn
from torch.export import Dim

KIND = "X"
CONSTRUCTS = (1, 2, 3, 4, 5, 6, 7, 9)

SINK_RATE, PULL_UP, TOO_LOW_GEAR, RETARD = 11, 12, 13, 10
BOEING_CALLOUTS = [(2500.0, 1), (1000.0, 2), (500.0, 3), (100.0, 4), (50.0, 5), (40.0, 6),
                   (30.0, 7), (20.0, 8), (10.0, 9)]
AIRBUS_CALLOUTS = BOEING_CALLOUTS[:7] + [(20.0, RETARD), (10.0, 9)]


class GpwsCallouts(nn.Module):
    def __init__(self, airbus=True):
        super().__init__()
        self.callouts = AIRBUS_CALLOUTS if airbus else BOEING_CALLOUTS

    def _sink_limit(self, alt):
        # Mode 1 envelope (ft/min) as a function of radio altitude (ft)
        if alt > 1000.0:
            return 3000.0 + 0.8 * (alt - 1000.0)
        return 1500.0 + 1.5 * alt

    def forward(self, flight):
        # flight: (T, 3) samples of [radio altitude ft, vertical speed ft/min, gear down 0/1]
        pending = list(self.callouts)
        gear_warned = False
        events = []
        for t in range(flight.shape[0]):
            alt, vs, gear = flight[t].unbind()
            if alt <= 0:
                break  # touchdown
            if vs > 0:
                continue  # climbing: take-off or go-around
            while pending and alt < pending[0][0]:
                events.append(torch.tensor([float(t), float(pending[0][1])]))
                pending.pop(0)
            sink = -vs
            if alt < 2500.0 and sink > self._sink_limit(alt):
                code = PULL_UP if sink > 1.3 * self._sink_limit(alt) else SINK_RATE
                events.append(torch.tensor([float(t), float(code)]))
            if alt < 500.0 and not gear > 0.5 and not gear_warned:
                events.append(torch.tensor([float(t), float(TOO_LOW_GEAR)]))
                gear_warned = True
        if not events:
            return torch.zeros(0, 2)
        return torch.stack(events)


def model():
    torch.manual_seed(61018)
    return GpwsCallouts(airbus=True).eval()


def make_approach(alts, vs, gear=1.0):
    alts = torch.tensor(alts, dtype=torch.float32)
    n = alts.shape[0]
    vs = torch.full((n,), vs) if isinstance(vs, float) else torch.tensor(vs, dtype=torch.float32)
    g = torch.full((n,), gear)
    return (torch.stack([alts, vs, g], dim=1),)


def example_inputs():
    # stabilised approach from 2700 ft at -750 ft/min down to touchdown
    alts = [2700.0 - 137.0 * i for i in range(19)] + [80.0, 47.0, 33.0, 24.0, 13.0, 6.0, 3.0, 0.0, 0.0]
    return make_approach(alts, -750.0)


def dynamic_shapes():
    return ({0: Dim("samples", min=2, max=4000)},)


def verify_inputs():
    # unstable: 4200 ft/min at 1800 ft (limit 3640: SINK RATE), 5500 at 1300 ft
    # (limit 3240, x1.3 = 4212: PULL UP); gear still up below 500 ft (warned once)
    # and a data gap: 150 ft -> 35 ft passes the 100/50/40 callouts in one sample
    unstable = make_approach([2600.0, 2300.0, 1800.0, 1300.0, 900.0, 480.0, 310.0, 150.0, 35.0, 0.0],
                             [-1500.0, -2000.0, -4200.0, -5500.0, -1600.0, -900.0, -900.0, -800.0,
                              -700.0, -300.0],
                             gear=0.0)
    # go-around: descending to 240 ft, then climbing (continue) - log ends in the air
    go_around = make_approach([1200.0, 700.0, 420.0, 240.0, 300.0, 600.0, 1100.0],
                              [-900.0, -900.0, -850.0, -600.0, 1500.0, 2000.0, 2000.0])
    return [
        # every callout once (RETARD at 20 ft), no alerts; at 3 ft no callout is left
        # (empty pending list); touchdown -> break
        example_inputs(),
        # alerts: SINK RATE, PULL UP, TOO LOW GEAR; three callouts between two samples
        unstable,
        go_around,
        # cruise-like level flight high above ground: nothing at all -> early return
        make_approach([3500.0, 3510.0, 3490.0], -50.0),
    ]
