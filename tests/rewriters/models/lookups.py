"""Python tables looked up at a size a converted branch set: a list indexed by the number of rounds
kept (``BEST_OF[m]``) and a dict of adjustments read with ``.get(m, 0.0)`` and ``[m]`` (Python
would hash the symbolic size); and a dict of per-phase command rows looked up by the phase a
state machine in a converted loop carries (``DEMANDS[phase][j]``); a tuple of (row, column) steps
indexed by a recorded move (``dr, dc = STEPS[int(moves[t])]``); a catalog of named sections read
at the position a for/else search stopped at (``SECTIONS[min(k, 2)][2]``)."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded

BEST_OF = [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3]
ADJUST = {3: -2.0, 4: -1.0, 6: -1.0}
BONUS = {3: 1, 5: 2, 8: 3, 9: 4, 10: 5}
IDLE, DIG, LIFT = 0, 1, 2
DEMANDS = {IDLE: (0.0, 0.0), DIG: (0.8, -0.3), LIFT: (0.2, 0.9)}
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))  # up, down, left, right
ITEMS = torch.export.Dim("items", min=2, max=16)
SECTIONS = [("W8", 10.0, 1.0), ("W10", 20.0, 2.0), ("W12", 30.0, 4.0)]  # name, mass, strength
BINS = [("small", 5.0, False), ("small", 5.0, True), ("large", 20.0, True)]  # name, capacity, fragile ok


class BestOfRecent(nn.Module):
    """The mean of the lowest differentials among the last 10 (a handicap index)."""

    def forward(self, diffs):
        if diffs.shape[0] > 10:
            diffs = diffs[-10:]
        m = diffs.shape[0]
        best, _ = torch.sort(diffs)
        index = best[: BEST_OF[m]].mean() + ADJUST.get(m, 0.0)
        bonus = BONUS[m] if m in BONUS else 0
        return index * 2.0 + bonus


class PhaseCommands(nn.Module):
    """Dig when the pressure rises, lift after two ticks of digging, idle again below zero."""

    def forward(self, pressure):
        phase, timer = IDLE, 0
        commands = []
        for t in range(pressure.shape[0]):
            demand = DEMANDS[phase]
            commands.append(torch.stack([pressure[t] * demand[0], pressure[t] + demand[1]]))
            if phase == IDLE:
                if pressure[t] > 0.5:
                    phase, timer = DIG, 0
            elif phase == DIG:
                timer += 1
                if timer >= 2:
                    phase = LIFT
            elif pressure[t] < 0:
                phase = IDLE
        return torch.stack(commands)


class ReplayMoves(nn.Module):
    """A walker on a walled grid replays recorded moves: a move into a wall is a bump."""

    def forward(self, walls, moves):
        r, c = torch.tensor(1), torch.tensor(1)
        bumps = torch.tensor(0)
        for t in range(moves.shape[0]):
            dr, dc = STEPS[int(moves[t])]
            if walls[r + dr, c + dc]:
                bumps = bumps + 1
                continue
            r, c = r + dr, c + dc
        return torch.stack([r, c, bumps])


def _walled(h: int, w: int) -> torch.Tensor:
    walls = torch.ones(h, w, dtype=torch.bool)
    walls[1:-1, 1:-1] = False
    return walls


class BinPacker(nn.Module):
    """Each item goes to the first bin of a literal table of named rows that takes it: a Python
    loop over ``BINS`` with a tensor ``continue`` and ``break``, inside a loop over the items."""

    def forward(self, sizes, fragile):
        loads = torch.zeros(len(BINS))
        placed = torch.full((sizes.shape[0],), -1.0)
        for i in range(sizes.shape[0]):
            for b, (_, capacity, fragile_ok) in enumerate(BINS):
                if fragile[i] > 0.5 and not fragile_ok:
                    continue
                if loads[b] + sizes[i] <= capacity:
                    loads[b] += sizes[i]
                    placed[i] = float(b)
                    break
        return placed, loads


class SetpointStates(nn.Module):
    """A controller whose state (a Python int a converted loop carries) picks a setpoint from a dict
    on a module attribute, read as `torch.tensor(self.setpoints[state])` in a branch."""

    def __init__(self):
        super().__init__()
        self.setpoints = {0: 55.0, 1: 100.0, 2: 70.0}

    def forward(self, temps):
        state, out = 0, []
        for t in range(temps.shape[0]):
            if state == 0 and temps[t] > 50.0:
                state = 1
            elif state == 1 and temps[t] > 98.0:
                state = 2
            if state == 2:
                power = torch.zeros(())
            else:
                power = (torch.tensor(self.setpoints[state]) - temps[t]) * 0.1
            out.append(power)
        return torch.stack(out)


class SectionPicker(nn.Module):
    """The lightest section strong enough for each load (for/else: none is), then its mass read
    from the catalog at that position in a tensor branch; the catalog's names are never read."""

    def forward(self, loads):
        masses = []
        for i in range(loads.shape[0]):
            for k, section in enumerate(SECTIONS):  # noqa: B007 (k is read after the loop)
                if loads[i] * section[2] > 3.0:
                    break
            else:
                k = len(SECTIONS)
            mass = torch.zeros(())
            if loads[i] > 0.5:
                mass = loads[i] * SECTIONS[min(k, len(SECTIONS) - 1)][1]
            masses.append(mass)
        return torch.stack(masses)


CASES = [
    Case(
        "dict_on_the_module_indexed_by_a_carried_state",
        seeded(SetpointStates),
        (torch.tensor([20.0, 60.0, 80.0, 99.0, 90.0]),),
        [(torch.tensor([20.0, 30.0]),), (torch.tensor([60.0, 99.5, 99.0]),)],
        ({0: torch.export.Dim("n", min=2, max=32)},),
    ),
    Case(
        "table_of_steps_indexed_by_a_recorded_move",
        seeded(ReplayMoves),
        (_walled(5, 6), torch.tensor([3, 3, 1, 1, 2])),
        [
            (_walled(4, 4), torch.tensor([0, 2, 3, 1, 1, 3, 3])),  # bumps (up, left) and steps
            (_walled(6, 5), torch.tensor([1, 3])),  # no bumps
        ],
        (
            {0: torch.export.Dim("h", min=3, max=16), 1: torch.export.Dim("w", min=3, max=16)},
            {0: torch.export.Dim("moves", min=2, max=32)},
        ),
        constructs=("for->while_loop",),
    ),
    Case(
        "dict_and_list_tables_read_at_a_size_a_branch_set",
        seeded(BestOfRecent),
        (torch.tensor([3.0, 9.0, 1.0, 4.0, 7.0, 2.0, 8.0, 5.0]),),
        [
            (torch.tensor([5.0, 1.0, 3.0]),),  # 3 rounds: adjusted, a bonus
            (torch.tensor([5.0, 1.0, 3.0, 2.0]),),  # 4 rounds: adjusted, no bonus
            (torch.tensor([5.0, 1.0, 3.0, 2.0, 8.0]),),  # 5: no adjustment, a bonus
            (torch.arange(14.0).flip(0),),  # more than 10: the last 10 kept
        ],
        ({0: torch.export.Dim("rounds", min=3, max=40)},),
        constructs=("ifexp->where",),
    ),
    Case(
        "dict_of_rows_read_at_the_phase_a_loop_carries",
        seeded(PhaseCommands),
        (torch.tensor([0.1, 0.7, 0.6, 0.4, 0.3, -0.2, 0.1, 0.9]),),
        [
            (torch.tensor([0.1, 0.2]),),  # idle throughout
            (torch.tensor([0.9, 0.8, 0.7, 0.6, 0.5, 0.4]),),  # dig, then lift, never back to idle
        ],
        ({0: torch.export.Dim("ticks", min=2, max=40)},),
        constructs=("for->scan",),
    ),
    Case(
        "literal_table_of_named_rows_looped_with_a_tensor_break",
        seeded(BinPacker),
        (torch.tensor([3.0, 3.0, 4.0, 9.0, 2.0]), torch.tensor([0.0, 1.0, 0.0, 1.0, 0.0])),
        [
            (torch.tensor([1.0, 30.0]), torch.tensor([1.0, 0.0])),  # fragile skips bin 0; one fits nowhere
            (torch.tensor([4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0]), torch.zeros(7)),
        ],
        ({0: ITEMS}, {0: ITEMS}),
    ),
    Case(
        "a_catalog_of_named_rows_read_at_a_for_else_position_in_a_branch",
        seeded(SectionPicker),
        (torch.tensor([0.2, 1.0, 2.0, 4.0]),),
        [(torch.tensor([0.1, 0.9]),), (torch.tensor([5.0, 0.3, 0.6, 1.6, 3.5]),)],
        ({0: ITEMS},),
    ),
]
