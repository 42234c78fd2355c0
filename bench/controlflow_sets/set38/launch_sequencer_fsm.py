"""Launch control: terminal-count state machine replayed over per-second telemetry
(countdown, weather holds, scrub, ignition checks, abort, liftoff).

Kind X. Constructs: 1 2 3 5 6 7
"""
import torch
import torch.nn as nn

COUNTDOWN, HOLD, IGNITION, LIFTOFF, SCRUB, ABORT = range(6)


class LaunchSequencer(nn.Module):
    def __init__(self, count_from=10, max_hold=6, ignition_ticks=3):
        super().__init__()
        self.count_from = count_from
        self.max_hold = max_hold
        self.ignition_ticks = ignition_ticks
        # telemetry columns: tank pressure (bar), engine temp (K/1000), wind (m/s), range clear, gimbal ok
        self.p_min, self.p_max = 2.8, 3.6
        self.wind_limit = 15.0
        self.temp_max = 3.2

    def go_nogo(self, row):
        pressure_ok = (row[0] > self.p_min) & (row[0] < self.p_max)
        return bool(pressure_ok) and row[3] > 0.5 and row[2] <= self.wind_limit

    def ignition_fault(self, row):
        if row[1] > self.temp_max:
            return True
        return not (row[4] > 0.5)

    def forward(self, telemetry):
        n = telemetry.shape[0]
        state = COUNTDOWN
        count = self.count_from
        hold_ticks = 0
        ign = 0
        states = []
        liftoff_at = torch.tensor(-1)
        for t in range(n):
            row = telemetry[t]
            if state == COUNTDOWN:
                if self.go_nogo(row):
                    count -= 1
                    if count == 0:
                        state = IGNITION
                else:
                    state = HOLD
                    hold_ticks = 0
            elif state == HOLD:
                hold_ticks += 1
                if self.go_nogo(row):
                    state = COUNTDOWN
                elif hold_ticks > self.max_hold:
                    state = SCRUB
            else:  # IGNITION
                if self.ignition_fault(row):
                    states.append(ABORT)
                    codes = torch.tensor(states + [ABORT] * (n - len(states)))
                    return codes, liftoff_at, torch.tensor(count)
                ign += 1
                if ign >= self.ignition_ticks:
                    state = LIFTOFF
                    liftoff_at = torch.tensor(t)
            states.append(state)
            if state == LIFTOFF or state == SCRUB:
                break
        codes = torch.tensor(states + [state] * (n - len(states)))
        return codes, liftoff_at, torch.tensor(count)


def model():
    torch.manual_seed(17)
    return LaunchSequencer().eval()


def _make_telemetry(n, seed, wind_at=(), bad_pressure_at=(), hot_at=(), gimbal_fail_at=(), range_foul_at=()):
    g = torch.Generator().manual_seed(seed)
    tel = torch.stack([
        3.2 + 0.05 * torch.randn(n, generator=g),     # tank pressure
        2.5 + 0.05 * torch.randn(n, generator=g),     # engine temp
        8.0 + 1.0 * torch.randn(n, generator=g),      # wind
        torch.ones(n),                                 # range clear
        torch.ones(n),                                 # gimbal ok
    ], 1)
    for i in wind_at:
        tel[i, 2] = 22.0
    for i in bad_pressure_at:
        tel[i, 0] = 2.2
    for i in hot_at:
        tel[i, 1] = 3.6
    for i in gimbal_fail_at:
        tel[i, 4] = 0.0
    for i in range_foul_at:
        tel[i, 3] = 0.0
    return (tel,)


def example_inputs():
    # gust at t=3 -> hold, clears at t=5, count resumes, liftoff at t=15; trailing telemetry ignored
    return _make_telemetry(20, 0, wind_at=(3, 4))


def dynamic_shapes():
    return ({0: torch.export.Dim("ticks", min=4, max=300)},)


def verify_inputs():
    return [
        example_inputs(),                                         # hold then resume, liftoff, break
        _make_telemetry(8, 1),                                    # count never reaches zero: loop ends, padding unused
        _make_telemetry(30, 2, wind_at=tuple(range(2, 12))),      # hold longer than max_hold: scrub + break
        _make_telemetry(20, 3, hot_at=(11,)),                     # engine over-temperature during ignition: abort return
        _make_telemetry(20, 4, gimbal_fail_at=(12,)),             # gimbal fault during ignition: abort via the `not`
        _make_telemetry(16, 5, bad_pressure_at=(1,), range_foul_at=(3, 4)),
        # ^ pressure out of band -> hold, resumes next tick; range fouled -> hold again for two ticks, resumes
    ]
