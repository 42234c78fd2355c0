"""BFD (RFC 5880) asynchronous-mode session state machine on a received-packet log.

rx_times: arrival time (ms) of each control packet from the neighbour, rx_state: the
State field it carried (0 AdminDown, 1 Down, 2 Init, 3 Up). Between packets the
detection timer may expire (possibly several periods in a row); a learned jitter model
widens the detection time on noisy links. After too many Up->Down flaps the session is
dampened (held AdminDown) and the rest of the log is ignored.
Outputs: local state after each packet, diagnostic code, fraction of time Up.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

ADMIN_DOWN, DOWN, INIT, UP = 0, 1, 2, 3
DIAG_NONE, DIAG_EXPIRED, DIAG_NEIGHBOR_DOWN = 0, 1, 3


def next_state(local, remote):
    if remote == ADMIN_DOWN:
        return DOWN if local != DOWN else local
    if local == DOWN:
        if remote == DOWN:
            return INIT
        if remote == INIT:
            return UP
        return local
    if local == INIT:
        if remote == INIT or remote == UP:
            return UP
        return local
    if remote == DOWN:
        return DOWN  # neighbour signalled down while we were Up
    return local


class BfdSession(nn.Module):
    def __init__(self, rx_interval_ms=50.0, detect_mult=3.0, max_flaps=3, max_missed=8):
        super().__init__()
        self.jitter = nn.Linear(3, 1)
        self.rx_interval, self.detect_mult = rx_interval_ms, detect_mult
        self.max_flaps, self.max_missed = max_flaps, max_missed

    def forward(self, rx_times, rx_state):
        n = rx_times.shape[0]
        state, flaps = DOWN, 0
        states, diags = [], []
        up_ms = torch.zeros(())
        for i in range(n):
            detect = torch.tensor(self.detect_mult * self.rx_interval)
            if i >= 3:
                gaps = (rx_times[i - 2:i + 1] - rx_times[i - 3:i]) / self.rx_interval
                detect = detect + self.rx_interval * F.softplus(self.jitter(gaps))[0]
            gap = rx_times[i] - rx_times[i - 1] if i > 0 else torch.zeros(())
            if state == UP:
                up_ms = up_ms + torch.minimum(gap, detect)
            missed = 0
            while gap > detect and missed < self.max_missed:
                missed += 1  # one more detection period without a packet
                gap = gap - detect
            diag = DIAG_NONE
            if missed > 0 and state != DOWN:
                if state == UP:
                    flaps += 1
                state, diag = DOWN, DIAG_EXPIRED
            new = next_state(state, rx_state[i])
            if new == DOWN and state == UP:
                flaps += 1
                diag = DIAG_NEIGHBOR_DOWN
            state = new
            states.append(torch.tensor(state))
            diags.append(torch.tensor(diag))
            if flaps >= self.max_flaps:
                break  # dampen: hold the session administratively down
        pad = n - len(states)
        st = torch.cat([torch.stack(states), torch.full((pad,), ADMIN_DOWN)])
        dg = torch.cat([torch.stack(diags), torch.full((pad,), DIAG_NONE)])
        span = (rx_times[-1] - rx_times[0]).clamp(min=1.0)
        return st, dg, up_ms / span


def model():
    torch.manual_seed(5815)
    return BfdSession().eval()


def _log(states, period=50.0, gaps_at=None, seed=0):
    g = torch.Generator().manual_seed(seed)
    n = len(states)
    dt = period + 4.0 * torch.rand(n, generator=g) - 2.0
    for i, extra in (gaps_at or {}).items():
        dt[i] = dt[i] + extra
    return torch.cumsum(dt, 0), torch.tensor(states)


def example_inputs():
    # three-way handshake Down -> Init -> Up, steady Up, neighbour goes AdminDown
    return _log([1, 2, 3, 3, 3, 3, 3, 3, 0, 1], seed=1)


def dynamic_shapes():
    p = torch.export.Dim("packets", min=2, max=64)
    return ({0: p}, {0: p})


def verify_inputs():
    flappy = ([1, 3] + [3] * 8 + [1, 1, 3] + [3] * 6) * 4
    return [
        # handshake, Up, neighbour AdminDown -> Down (diag 3)
        example_inputs(),
        # 64 packets: repeated neighbour Down while Up -> third flap dampens the session
        _log(flappy[:64], seed=2),
        # 2 packets: neighbour already Init -> Up straight away
        _log([2, 3], seed=3),
        # Up, then a 400 ms outage (several missed periods) -> expired (diag 1), recovers;
        # later a 2 s outage is capped at max_missed periods
        _log([1, 2, 3, 3, 3, 3, 1, 3, 3, 3, 3, 3, 3, 1, 3, 3], gaps_at={5: 400.0, 12: 2000.0},
             seed=4),
        # neighbour AdminDown while we are Down (stay Down), Init, then silence expires Init
        _log([0, 1, 1, 3, 3], gaps_at={3: 500.0}, seed=5),
    ]
