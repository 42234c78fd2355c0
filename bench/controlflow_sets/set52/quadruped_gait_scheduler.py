"""Quadruped robot trot gait scheduler: per-leg contact state machine
(stance -> liftoff -> swing -> touchdown) driven by foot force sensors, with
stance/swing durations from a small terrain model on the IMU, diagonal-pair
support checks, and an abort when the body tips over or two stance feet slip."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim

STANCE, LIFTOFF, SWING, TOUCHDOWN, FAULT = range(5)
DIAGONAL = {0: 3, 3: 0, 1: 2, 2: 1}  # FL-RR and FR-RL move together


class GaitScheduler(nn.Module):
    def __init__(self):
        super().__init__()
        self.timing = nn.Linear(3, 2)
        self.liftoff_force = 15.0
        self.touchdown_force = 40.0
        self.slip_force = 5.0
        self.fall_angle = 0.6  # rad roll / pitch

    def phase_ticks(self, imu):
        raw = F.softplus(self.timing(imu.abs().mean(0))) * 4.0 + 2.0
        stance = int(raw[0].round().clamp(2, 10).item())
        swing = int(raw[1].round().clamp(2, 10).item())
        return stance, swing

    def can_lift(self, state, leg):
        others = [l for l in range(4) if l != leg and l != DIAGONAL[leg]]
        return all(state[o] == STANCE for o in others)

    def forward(self, contacts, imu):
        # contacts: [T, 4] foot force N (FL, FR, RL, RR); imu: [T, 3] roll, pitch, yaw rate
        stance_ticks, swing_ticks = self.phase_ticks(imu)
        state = [STANCE] * 4
        timer = [stance_ticks] * 4  # standing still counts as a long stance
        schedule = []
        fell = False
        for t in range(contacts.shape[0]):
            if imu[t, 0].abs() > self.fall_angle or imu[t, 1].abs() > self.fall_angle:
                fell = True
                break
            slipping = 0
            for leg in range(4):
                f = contacts[t, leg]
                timer[leg] += 1
                if state[leg] == STANCE:
                    if f < self.liftoff_force:
                        if timer[leg] < stance_ticks or not self.can_lift(state, leg):
                            slipping += 1  # unloaded when it should be bearing weight
                            if slipping >= 2:
                                break
                        else:
                            state[leg], timer[leg] = LIFTOFF, 0
                elif state[leg] == LIFTOFF:
                    if f < self.slip_force:
                        state[leg], timer[leg] = SWING, 0
                elif state[leg] == SWING:
                    if f > self.touchdown_force or timer[leg] >= 3 * swing_ticks:
                        state[leg], timer[leg] = TOUCHDOWN, 0
                else:
                    if f > self.touchdown_force:
                        state[leg], timer[leg] = STANCE, 0
            else:
                schedule.append(torch.tensor(state))
                continue
            fell = True  # two stance feet slipped: treat as a fall
            break
        while len(schedule) < contacts.shape[0]:
            schedule.append(torch.full((4,), FAULT))
        return torch.stack(schedule), torch.tensor(int(fell)), torch.tensor([stance_ticks, swing_ticks])


def model():
    torch.manual_seed(5214)
    return GaitScheduler().eval()


def _trot(steps, seed, period=10, fall_at=None, slip_at=None, stuck_leg=None):
    g = torch.Generator().manual_seed(seed)
    contacts = 80.0 + 10.0 * torch.rand(steps, 4, generator=g)
    profile = {2: 10.0, 3: 8.0, 4: 2.0, 5: 45.0, 6: 30.0}  # unload, swing, touch down, load up
    for t in range(steps):
        phase = t % period
        pair = (0, 3) if (t // period) % 2 == 0 else (1, 2)
        if phase in profile:
            for leg in pair:
                contacts[t, leg] = profile[phase]
    if stuck_leg is not None:
        contacts[7:steps, :] = 85.0  # the controller holds the other feet planted
        contacts[4:steps, stuck_leg] = 2.0  # foot caught mid-swing, sensor reads nothing
    imu = 0.05 * torch.randn(steps, 3, generator=g)
    if fall_at is not None:
        imu[fall_at, 0] = 0.9
    if slip_at is not None:
        contacts[slip_at, :] = 1.0
    return contacts, imu


def example_inputs():
    return _trot(60, 1)


def dynamic_shapes():
    t = Dim("ticks", min=2, max=200)
    return {0: t}, {0: t}


def verify_inputs():
    single_c, single_i = _trot(30, 5)
    single_c[8, 0] = 1.0  # FL just landed and briefly unloads: counted as slipping, no abort
    return [
        example_inputs(),                 # normal trot: all states, liftoff and touchdown waits
        _trot(200, 2, period=14),         # max ticks, slower trot, runs to the end
        _trot(2, 3),                      # min ticks: everyone still in stance
        _trot(80, 4, fall_at=33),         # body rolls over -> outer break, FAULT padding
        _trot(50, 6, slip_at=12),         # two stance feet unload -> inner break -> abort
        (single_c, single_i),             # single slipping foot -> no abort
        _trot(60, 7, stuck_leg=0),        # FL stuck in the air -> swing timeout -> waits in touchdown, never loads
    ]
