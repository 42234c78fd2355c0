"""Warehouse AMR (autonomous mobile robot) bump-and-cliff recovery behaviour.

Per control tick: left bumper, right bumper, cliff sensor, wheel-odometry
ratio (actual/commanded speed).  A cruise policy net gives wheel speeds; a
state machine runs BACKUP -> TURN after a bump or cliff, slows on wheel slip,
and gives up (STUCK) after too many bumps.
"""
import torch
import torch.nn as nn

CRUISE, BACKUP, TURN = 0, 1, 2


class CruisePolicy(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 2), nn.Sigmoid())

    def forward(self, s):
        return 0.2 + 0.3 * self.net(s)  # m/s per wheel


class BumperRecovery(nn.Module):
    def __init__(self, backup_ticks=3, turn_ticks=2, max_bumps=4):
        super().__init__()
        self.policy = CruisePolicy()
        self.backup_ticks = backup_ticks
        self.turn_ticks = turn_ticks
        self.max_bumps = max_bumps

    def hit_something(self, s):
        return s[2] > 0.5 or s[0] > 0.5 or s[1] > 0.5

    def forward(self, sensors):
        state = CRUISE
        timer = 0
        bumps = 0
        turn_dir = torch.ones(())
        stuck = torch.zeros((), dtype=torch.long)
        cmds = []
        for t in range(sensors.shape[0]):
            s = sensors[t]
            if state == CRUISE:
                if self.hit_something(s):
                    state, timer = BACKUP, self.backup_ticks
                    bumps += 1
                    # turn away from the side that was hit
                    turn_dir = -torch.ones(()) if s[0] > s[1] else torch.ones(())
                    cmd = torch.zeros(2)
                elif s[3] < 0.3:
                    cmd = self.policy(s) * 0.5  # wheel slip: creep
                else:
                    cmd = self.policy(s)
            elif state == BACKUP:
                cmd = torch.full((2,), -0.15)
                timer -= 1
                if timer == 0:
                    state, timer = TURN, self.turn_ticks
            else:
                cmd = torch.stack([-0.3 * turn_dir, 0.3 * turn_dir])
                timer -= 1
                if timer == 0:
                    state = CRUISE
            if bumps > self.max_bumps:
                stuck = torch.ones((), dtype=torch.long)
                cmds.append(torch.zeros(2))
                break
            cmds.append(cmd)
        return torch.stack(cmds), stuck


def model():
    torch.manual_seed(5114)
    return BumperRecovery().eval()


def _ticks(n, seed, left=(), right=(), cliff=(), slip=()):
    g = torch.Generator().manual_seed(seed)
    s = torch.zeros(n, 4)
    s[:, 3] = 0.8 + 0.2 * torch.rand(n, generator=g)
    for i in left:
        s[i, 0] = 1.0
    for i in right:
        s[i, 1] = 1.0
    for i in cliff:
        s[i, 2] = 1.0
    for i in slip:
        s[i, 3] = 0.1
    return s


def example_inputs():
    return (_ticks(20, 1, left=(2,), right=(10,), slip=(16, 17)),)


def dynamic_shapes():
    return ({0: torch.export.Dim("ticks", min=2, max=500)},)


def verify_inputs():
    return [
        # example: left bump (turn right), backup, turn, cruise, right bump (turn left), slip creep
        example_inputs(),
        # min: two quiet ticks, cruise only
        (_ticks(2, 2),),
        # max: cliff then repeated bumps -> STUCK -> early break
        (_ticks(500, 3, cliff=(5,), left=(20, 40, 60), right=(80, 100, 120)),),
    ]
