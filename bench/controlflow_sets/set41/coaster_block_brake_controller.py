"""Block-brake controller for a multi-train roller coaster.

The circuit is split into blocks, each ending in a brake. Every control tick
the proximity sensors report block occupancy (analog, -1 = sensor fault).
A train may only leave its block when the next block is clear: the brake
closes fully when no block ahead is clear, otherwise it trims overspeed
harder the less clear track there is ahead. The allowed speed is adjusted
for weather by a small network. A sensor fault triggers an emergency stop:
all brakes close for the rest of the horizon.
"""
import torch
import torch.nn as nn
from torch.export import Dim

RUNNING, HOLD, ESTOP = 0, 1, 2


def clear_blocks_ahead(occ, b):
    n = occ.shape[0]
    k = 1
    while k < n and not occ[(b + k) % n]:
        k += 1
    return k - 1


def brake_command(speed, vmax, clear_ahead):
    if clear_ahead == 0:
        return torch.ones((), dtype=speed.dtype)  # next block occupied: hold the train
    excess = speed - vmax
    if excess > 0:
        severity = 0.5 if clear_ahead == 1 else 0.25
        return torch.clamp(excess / vmax, max=1.0) * severity
    return torch.zeros((), dtype=speed.dtype)


class BlockBrakeController(nn.Module):
    def __init__(self, base_vmax=12.0):
        super().__init__()
        self.base_vmax = base_vmax
        self.weather = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, occupancy, speed, weather):
        n_ticks, n_blocks = occupancy.shape
        vmax = self.base_vmax * (1.0 + 0.1 * torch.tanh(self.weather(weather / 20.0)).squeeze())

        commands = []
        state = RUNNING
        for t in range(n_ticks):
            reading = occupancy[t]
            if (reading < 0).any():
                state = ESTOP
                break
            occ = reading > 0.5
            if not occ.any():
                commands.append(torch.zeros(n_blocks, dtype=speed.dtype))
                continue
            cmd = []
            for b in range(n_blocks):
                if not occ[b]:
                    cmd.append(torch.zeros((), dtype=speed.dtype))
                    continue
                ahead = clear_blocks_ahead(occ, b)
                cmd.append(brake_command(speed[t, b], vmax, ahead))
            cmd = torch.stack(cmd)
            if state == RUNNING and (cmd >= 1.0).any():
                state = HOLD
            commands.append(cmd)

        while len(commands) < n_ticks:
            commands.append(torch.ones(n_blocks, dtype=speed.dtype))  # e-stop: everything closed
        return torch.stack(commands), torch.tensor(state), vmax


def model():
    torch.manual_seed(43)
    return BlockBrakeController().eval()


O, C, F = 0.9, 0.05, -1.0  # occupied, clear, faulty sensor


def _ride(occ_rows, speed_rows, weather=(18.0, 4.0)):
    return (torch.tensor(occ_rows), torch.tensor(speed_rows), torch.tensor(list(weather)))


def example_inputs():
    return _ride(
        [[O, C, C, O, C, C], [C, O, C, O, C, C], [C, O, O, C, C, C], [C, C, O, C, O, C]],
        [[8.0, 0, 0, 9.0, 0, 0], [0, 8.5, 0, 7.0, 0, 0], [0, 9.0, 6.0, 0, 0, 0], [0, 0, 7.5, 0, 8.0, 0]],
    )
    # 2 trains; tick 2 has adjacent trains (hold, while runs 0 times); others 1-2 clear blocks ahead


def dynamic_shapes():
    ticks = Dim("ticks", min=2, max=120)
    blocks = Dim("blocks", min=3, max=10)
    return ({0: ticks, 1: blocks}, {0: ticks, 1: blocks}, None)


def verify_inputs():
    return [
        example_inputs(),
        _ride([[O, C, C, C], [C, O, C, C], [C, C, F, C], [C, C, O, C]],
              [[8.0, 0, 0, 0], [0, 9.0, 0, 0], [0, 0, 9.0, 0], [0, 0, 9.0, 0]]),
        # ^ lone train (while runs to the end of the ring: k < n fails), then a sensor fault -> e-stop break
        _ride([[C, C, C], [O, C, C], [C, C, C]], [[0, 0, 0], [16.0, 0, 0], [0, 0, 0]], weather=(30.0, 15.0)),
        # ^ empty ticks (continue), lone overspeeding train with 2 clear blocks -> light trim
        _ride([[O, C, O, C, C], [O, C, O, C, C]], [[16.0, 0, 15.0, 0, 0], [7.0, 0, 7.0, 0, 0]]),
        # ^ overspeed with exactly 1 clear block ahead (hard trim), then normal speed (no brake)
        _ride([[O, O, O], [O, O, C]], [[5.0, 5.0, 5.0], [5.0, 5.0, 0]], weather=(-5.0, 10.0)),
        # ^ every block occupied: all hold (state HOLD)
        _ride([[O, C, C], [C, O, C], [C, C, F]], [[8.0, 0, 0], [0, 8.0, 0], [0, 0, 0]]),
        # ^ fault on the last tick: one closed row appended
        _ride([[F, O, C, C, C, C, C, C, C, C]] * 3, [[0.0] * 10] * 3),
        # ^ fault on the very first tick: nothing evaluated, all closed
    ]
