"""Industrial gas turbine: automatic start sequencer (crank, purge, light-off, accel).

Telemetry arrives every 0.5 s as (N2 speed %, exhaust gas temperature C,
fuel manifold pressure bar).  The sequencer cranks to purge speed, purges
the exhaust, opens fuel and fires the igniters, and declares light-off on an
EGT rise.  A failed light-off is purged and retried up to a limit; during
acceleration a hot start (EGT over the limit) or a hung start (N2 stops
rising below self-sustaining speed) aborts, as does low fuel pressure during
ignition.  The start is complete at idle speed.  A small GRU condenses the
start trace into a combustor health vector for the maintenance log.
"""
import torch
import torch.nn as nn

CRANK, PURGE, IGNITION, ACCEL, IDLE, ABORT = range(6)
OK, FAILED_LIGHT_OFF, HOT_START, HUNG_START, LOW_FUEL, INCOMPLETE = range(6)


class LightOffSequencer(nn.Module):
    def __init__(self):
        super().__init__()
        self.purge_speed_pct = 20.0
        self.purge_ticks = 6
        self.light_off_window = 10
        self.light_off_rise_c = 100.0
        self.hot_start_c = 750.0
        self.hung_ticks = 8
        self.self_sustaining_pct = 50.0
        self.idle_pct = 58.0
        self.max_attempts = 3
        self.min_fuel_bar = 3.0
        self.health = nn.GRU(3, 8, batch_first=True)
        self.head = nn.Linear(8, 4)

    def forward(self, telem):
        n_ticks = telem.shape[0]
        _, h = self.health((telem / torch.tensor([100.0, 1000.0, 10.0])).unsqueeze(0))
        health = torch.tanh(self.head(h[0, 0]))
        hot_limit = self.hot_start_c + 10.0 * health[0]

        log = []
        t = 0
        # starter cranks the rotor up to purge speed
        while t < n_ticks and telem[t, 0] < self.purge_speed_pct:
            log.append(CRANK)
            t += 1

        state, outcome = PURGE, INCOMPLETE
        timer, attempts, stall = 0, 0, 0
        egt_ref = torch.zeros(())
        best_n2 = torch.zeros(())
        while t < n_ticks and state != IDLE:
            n2, egt, fuel = telem[t, 0], telem[t, 1], telem[t, 2]
            if state == PURGE:
                timer += 1
                if timer >= self.purge_ticks:
                    state, timer = IGNITION, 0
                    egt_ref = egt
                    attempts += 1
            elif state == IGNITION:
                timer += 1
                if fuel < self.min_fuel_bar:
                    state, outcome = ABORT, LOW_FUEL
                elif egt - egt_ref > self.light_off_rise_c:
                    state, timer, stall = ACCEL, 0, 0
                    best_n2 = n2
                elif timer >= self.light_off_window:
                    if attempts >= self.max_attempts:
                        state, outcome = ABORT, FAILED_LIGHT_OFF
                    else:
                        state, timer = PURGE, 0  # clear unburnt fuel, then retry
            else:  # ACCEL
                if egt > hot_limit:
                    state, outcome = ABORT, HOT_START
                else:
                    if n2 > best_n2 + 0.5:
                        best_n2, stall = n2, 0
                    else:
                        stall += 1
                    if stall >= self.hung_ticks and n2 < self.self_sustaining_pct:
                        state, outcome = ABORT, HUNG_START
                    elif n2 >= self.idle_pct:
                        state, outcome = IDLE, OK
            log.append(state)
            t += 1
            if state == ABORT:
                break  # fuel shut-off valve closed, starter disengaged

        states = torch.tensor(log + [-1] * (n_ticks - len(log)))
        return states, torch.tensor(outcome), torch.tensor(t), torch.tensor(attempts), health


def model():
    torch.manual_seed(5917)
    return LightOffSequencer().eval()


def make_start(n_ticks, light_at=None, accel=2.0, hang_at=None, hot=False, low_fuel_at=None,
               crank_cap=25.0):
    """Scripted start: crank ramp to 25 %, light-off at tick light_at (None: never)."""
    n2, egt, fuel = [], [], []
    level, temp = 0.0, 120.0
    for t in range(n_ticks):
        if light_at is None or t < light_at:
            level = min(5.0 * (t + 1), crank_cap)
            temp = 120.0 + 0.5 * t
        else:
            k = t - light_at
            cap = hang_at if hang_at is not None else 65.0
            level = min(25.0 + accel * k, cap)
            temp = 120.0 + 0.5 * light_at + min(60.0 * (k + 1), 420.0)
            if hot and k >= 4:
                temp = 800.0 + 5.0 * k
        n2.append(level)
        egt.append(temp)
        fuel.append(1.5 if low_fuel_at is not None and t >= low_fuel_at else 5.0)
    return (torch.tensor([n2, egt, fuel]).T.contiguous(),)


def example_inputs():
    # clean start: purge, light-off on the first attempt, accelerate to idle
    return make_start(48, light_at=14)


def dynamic_shapes():
    return ({0: torch.export.Dim("ticks", min=8, max=160)},)


def verify_inputs():
    ex = example_inputs()
    # 8 ticks of data: still purging when the record ends
    short = make_start(8)
    # first light-off fails (window expires), purge and retry lights at tick 33
    retry = make_start(70, light_at=33)
    # never lights: three attempts, then abort (160 ticks of data)
    dud = make_start(160)
    # hot start during acceleration
    hot = make_start(40, light_at=13, hot=True)
    # hung start: N2 stalls at 42 %
    hung = make_start(60, light_at=12, accel=1.5, hang_at=42.0)
    # fuel pressure collapses during ignition
    nofuel = make_start(30, low_fuel_at=12)
    # weak starter: never reaches purge speed before the record ends
    weak = make_start(20, crank_cap=14.0)
    return [ex, short, retry, dud, hot, hung, nofuel, weak]
