"""Conveyor car-wash tunnel controller (PLC logic ported to Python).

Per tick the PLC reports vehicle position along the tunnel (m), vehicle height
(m) and pump pressure (bar); a camera gives a feature vector whose first entry
is the foreground fraction in the keep-out zone.  The tunnel steps through
prewash, foam, brush, rinse, (wax), dry.  A person in the tunnel is an
emergency stop; foam and rinse wait for pump pressure; tall vehicles skip the
brush arch.
"""
import torch
import torch.nn as nn

IDLE, PREWASH, FOAM, BRUSH, RINSE, WAX, DRY, DONE = range(8)


class CarWashSequencer(nn.Module):
    def __init__(self, has_wax_arch=True, min_pressure=1.5):
        super().__init__()
        self.has_wax_arch = has_wax_arch
        self.min_pressure = min_pressure
        self.person_net = nn.Sequential(nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 1))

    def person_detected(self, feat):
        logit = 8.0 * (feat[0] - 0.3) + 0.5 * self.person_net(feat).squeeze(-1)
        return torch.sigmoid(logit) > 0.5

    def forward(self, cam, plc):
        states = torch.zeros(plc.shape[0])
        water = torch.zeros(())
        state = IDLE
        ticks = 0
        for t in range(plc.shape[0]):
            pos, height, pressure = plc[t, 0], plc[t, 1], plc[t, 2]
            if self.person_detected(cam[t]):
                states[t:] = -1.0
                return states, torch.tensor(float(t)), water
            if pressure < self.min_pressure and state in (FOAM, RINSE):
                states[t] = state
                continue
            ticks += 1
            if state == IDLE:
                if pos > 0.5:
                    state, ticks = PREWASH, 0
            elif state == PREWASH:
                water = water + 0.2 * pressure
                if ticks >= 2:
                    state, ticks = FOAM, 0
            elif state == FOAM:
                water = water + 0.3 * pressure
                if pos > 3.0:
                    state, ticks = BRUSH, 0
            elif state == BRUSH:
                if height > 2.2 or pos > 6.0:
                    state, ticks = RINSE, 0
            elif state == RINSE:
                water = water + 0.5 * pressure
                if pos > 8.0:
                    if self.has_wax_arch:  # static-config
                        state = WAX
                    else:
                        state = DRY
                    ticks = 0
            elif state == WAX:
                if ticks >= 2:
                    state, ticks = DRY, 0
            elif state == DRY:
                if pos > 11.0:
                    state, ticks = DONE, 0
            else:
                break
            states[t] = state
        return states, torch.tensor(-1.0), water


def model():
    torch.manual_seed(1404)
    return CarWashSequencer().eval()


def _run(positions, height, pressures, person_at=None, seed=0):
    n = len(positions)
    g = torch.Generator().manual_seed(seed)
    cam = 0.1 * torch.rand(n, 16, generator=g)
    cam[:, 0] = 0.05
    if person_at is not None:
        cam[person_at, 0] = 0.7
    plc = torch.tensor([positions, [height] * n, pressures], dtype=torch.float32).T.contiguous()
    return cam, plc


def _full_cycle(height, low_pressure_ticks=(), person_at=None, extra=3):
    pos = [0.0, 0.3, 0.8, 1.3, 1.8, 2.3, 2.8, 3.3, 3.8, 4.6, 5.4, 6.2, 7.0, 7.8, 8.6,
           9.4, 10.2, 11.0, 11.8, 12.6] + [13.0] * extra
    pres = [3.0] * len(pos)
    for k in low_pressure_ticks:
        pres[k] = 0.8
    return _run(pos, height, pres, person_at=person_at, seed=len(pos))


def example_inputs():
    return _full_cycle(1.5)


def dynamic_shapes():
    t = torch.export.Dim("ticks", min=2, max=200)
    return ({0: t}, {0: t})


def verify_inputs():
    return [
        # example: sedan, full cycle through every stage incl. wax, DONE then break
        example_inputs(),
        # tall van (skips brush via height), pressure drops while foaming and while
        # rinsing (continue), and while in the brush arch (no wait needed there)
        _full_cycle(2.5, low_pressure_ticks=(6, 7, 9, 10, 13, 14)),
        # person walks into the tunnel mid-wash -> emergency stop (early return)
        _full_cycle(1.5, person_at=9),
        # two ticks, car not yet on the conveyor: stays idle
        _run([0.0, 0.2], 1.4, [3.0, 0.5]),
    ]
