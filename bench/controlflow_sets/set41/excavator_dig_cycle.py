"""Semi-autonomous trenching excavator: dig-cycle state machine.

Every control tick the machine reads the boom / stick / bucket cylinder
pressures (fraction of rated) and the bucket-tip depth below grade. A phase
machine (penetrate -> drag -> curl -> lift -> dump) sets per-joint demands;
each joint's valve controller (its own relief setting, learned gain, and
throttling near relief) turns demand + pressure into a valve command. The
curl duration is planned from the bucket load. Overload ticks freeze the
valves; digging too deep or finishing the planned number of buckets ends the
run and the valves are held closed.
"""
import torch
import torch.nn as nn
from torch.export import Dim

PENETRATE, DRAG, CURL, LIFT, DUMP = 0, 1, 2, 3, 4
DEMANDS = {
    PENETRATE: (-0.6, 0.4, 0.0),
    DRAG: (-0.2, 0.9, 0.1),
    CURL: (0.1, 0.2, 0.9),
    LIFT: (0.9, -0.2, 0.2),
    DUMP: (0.1, -0.6, -0.9),
}


class JointValve(nn.Module):
    def __init__(self, relief):
        super().__init__()
        self.relief = relief
        self.gain = nn.Linear(2, 1)

    def forward(self, demand, pressure):
        u = torch.tanh(self.gain(torch.stack([demand, pressure]))).squeeze(0)
        if pressure > self.relief:
            u = u * 0.3  # close to the relief valve: throttle instead of stalling
        return u


class DigCycleController(nn.Module):
    def __init__(self, reliefs=(0.85, 0.8, 0.75), overload=1.2, full_pressure=0.8, max_drag=6,
                 max_cycles=2, max_depth=3.0):
        super().__init__()
        self.valves = nn.ModuleList([JointValve(r) for r in reliefs])
        self.overload = overload
        self.full_pressure = full_pressure
        self.max_drag = max_drag
        self.max_cycles = max_cycles
        self.max_depth = max_depth

    def curl_ticks_for(self, bucket_pressure, target_angle=1.2):
        """Ticks of curl needed: a heavier bucket curls more slowly."""
        rate = 0.4 / (1.0 + bucket_pressure)
        angle = torch.zeros((), dtype=bucket_pressure.dtype)
        ticks = 0
        while angle < target_angle:
            angle = angle + rate
            ticks += 1
        return ticks

    def forward(self, pressures, depth, target_depth):
        n = pressures.shape[0]
        commands, phases = [], []
        phase, timer, cycles, curl_ticks = PENETRATE, 0, 0, 0
        for t in range(n):
            p = pressures[t]
            if p.max() > self.overload:
                commands.append(torch.zeros(3, dtype=pressures.dtype))
                phases.append(torch.tensor(phase))
                continue
            if depth[t] > self.max_depth:
                break  # trench wall collapse risk: abort
            demand = DEMANDS[phase]
            if phase == PENETRATE:
                if depth[t] >= target_depth[0]:
                    phase, timer = DRAG, 0
            elif phase == DRAG:
                timer += 1
                if p[1] > self.full_pressure or timer >= self.max_drag:
                    phase, timer = CURL, 0
                    curl_ticks = self.curl_ticks_for(p[2])
            elif phase == CURL:
                timer += 1
                if timer >= curl_ticks:
                    phase, timer = LIFT, 0
            elif phase == LIFT:
                timer += 1
                if depth[t] < -0.5 and timer >= 2:
                    phase = DUMP
            else:
                cycles += 1
                phase = PENETRATE

            u = []
            for j, valve in enumerate(self.valves):
                u.append(valve(torch.tensor(demand[j], dtype=pressures.dtype), p[j]))
            commands.append(torch.stack(u))
            phases.append(torch.tensor(phase))
            if cycles >= self.max_cycles:
                break  # planned number of buckets done

        while len(commands) < n:
            commands.append(torch.zeros(3, dtype=pressures.dtype))
            phases.append(torch.tensor(-1))
        return torch.stack(commands), torch.stack(phases), torch.tensor(cycles)


def model():
    torch.manual_seed(79)
    return DigCycleController().eval()


LOW = (0.3, 0.3, 0.3)


def _cycle(full=(0.3, 0.9, 0.5), drag_ticks=3, lift_depths=(-0.2, -0.8, -1.0)):
    """Ticks of one dig cycle as (pressures, depth)."""
    ticks = [(LOW, 0.5), (LOW, 1.0), (LOW, 1.6)]
    for k in range(drag_ticks - 1):
        ticks.append(((0.3, 0.4 + 0.07 * k, 0.3), 1.7))
    ticks.append((full, 1.8))
    ticks += [((0.4, 0.3, 0.6), 1.5)] * 6          # curl
    ticks += [((0.7, 0.3, 0.4), d) for d in lift_depths]
    ticks += [(LOW, -1.0)]                          # dump
    return ticks


def _run(ticks, target=1.5):
    p = torch.tensor([list(a) for a, _ in ticks])
    d = torch.tensor([b for _, b in ticks])
    return p, d, torch.tensor([target])


def example_inputs():
    return _run(_cycle() + [(LOW, 0.4), (LOW, 0.9)])


def dynamic_shapes():
    t = Dim("ticks", min=4, max=200)
    return ({0: t}, {0: t}, None)


def verify_inputs():
    return [
        example_inputs(),   # full cycle: drag ends on full bucket (pressure), curl planned from load, lift, dump
        _run([(LOW, 0.5), ((1.3, 0.5, 0.4), 0.9), ((0.9, 0.5, 0.2), 1.2), (LOW, 1.6), ((0.3, 0.5, 0.3), 1.7)]),
        # ^ overload tick (continue) while penetrating; boom above relief is throttled
        _run(_cycle(full=(0.3, 0.6, 0.1), drag_ticks=6, lift_depths=(-0.3, -0.4, -0.7, -0.9))),
        # ^ drag ends on timeout (or second operand), light bucket: short curl; lift waits for height
        _run(_cycle() + _cycle(full=(0.9, 0.85, 0.9)) + [(LOW, 0.3)] * 5),
        # ^ two buckets: max_cycles reached -> break, remaining ticks held closed
        _run([(LOW, 0.8), (LOW, 1.9), ((0.3, 0.5, 0.3), 3.4), (LOW, 3.5), (LOW, 3.6)]),
        # ^ digging too deep -> abort (break), three ticks held closed
        _run([(LOW, 0.8), (LOW, 1.9), ((0.3, 0.5, 0.3), 2.4), ((0.3, 0.6, 0.3), 3.2)]),
        # ^ too deep on the last tick: one tick held closed
        _run([(LOW, 0.2), (LOW, 0.4), (LOW, 0.6), (LOW, 0.8)]),          # minimum length: still penetrating
        _run((_cycle() + _cycle(lift_depths=(-0.6, -0.9))) * 3 + [(LOW, 0.5)] * 100),
        # ^ long log: stops after two buckets
    ]
