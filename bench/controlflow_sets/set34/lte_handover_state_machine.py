"""LTE/5G handover decision state machine running on a UE trace.

RSRP measurements (dBm) of the serving cell and its neighbours are layer-3
filtered (exponential smoothing, a submodule with its own loop). A small policy
network chooses the A3 hysteresis from speed-related statistics of the trace.
The state machine then steps through time: a neighbour better than the serving
cell by the hysteresis for `ttt_steps` consecutive samples triggers a handover
(unless the UE has just handed over: ping-pong guard); a serving cell below
the radio-link-failure level ends the trace early.

Kind X. Constructs: 1 (if/else on tensor comparisons), 2 (early return when
the link failed immediately; branches assign the same state), 3 (`and` of a
tensor predicate and a Python int condition), 5 (for over the dynamic trace
length, append + stack, both in the filter and the FSM), 6 (break on radio
link failure), 7 (submodules with loops). State machine with Python ints,
data-dependent argmax and history length.
"""
import torch
import torch.nn as nn

CONNECTED, RADIO_LINK_FAILURE = 0, 1


class L3Filter(nn.Module):
    """3GPP layer-3 filtering: F_n = (1 - a) F_{n-1} + a M_n, with a = 1 / 2^(k/4)."""

    def __init__(self, k=4):
        super().__init__()
        self.a = 1.0 / 2 ** (k / 4)

    def forward(self, meas):
        filtered = [meas[0]]
        for t in range(1, meas.shape[0]):
            filtered.append((1 - self.a) * filtered[-1] + self.a * meas[t])
        return torch.stack(filtered)


class HysteresisPolicy(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, rsrp):
        # fast-moving UEs see larger sample-to-sample fluctuations
        diffs = (rsrp[1:] - rsrp[:-1]).abs()
        stats = torch.stack([diffs.mean() / 5.0, rsrp.std() / 10.0, (rsrp.mean() + 100.0) / 20.0])
        return 1.0 + 2.0 * torch.sigmoid(self.net(stats))   # 1 .. 3 dB


class HandoverFSM(nn.Module):
    def __init__(self, ttt_steps=3, min_dwell=4, rlf_dbm=-118.0):
        super().__init__()
        self.ttt_steps = ttt_steps
        self.min_dwell = min_dwell
        self.rlf_dbm = rlf_dbm
        self.l3 = L3Filter()
        self.policy = HysteresisPolicy()

    def forward(self, rsrp, serving0):
        # rsrp: (T, C) dBm per cell; serving0: (1,) int64 initial serving cell
        filt = self.l3(rsrp)
        hyst = self.policy(rsrp)
        serving = serving0[0]
        state = CONNECTED
        ttt = 0
        last_handover = -self.min_dwell
        history, handovers = [], []
        for t in range(filt.shape[0]):
            serving_level = filt[t, serving]
            if serving_level < self.rlf_dbm:
                state = RADIO_LINK_FAILURE
                break
            neighbours = filt[t].clone()
            neighbours[serving] = -1000.0
            best = torch.argmax(neighbours)
            if neighbours[best] > serving_level + hyst[0] and t - last_handover >= self.min_dwell:
                ttt += 1
                if ttt >= self.ttt_steps:
                    serving = best
                    ttt = 0
                    last_handover = t
                    handovers.append(torch.tensor(t))
            else:
                ttt = 0
            history.append(serving)
        if len(history) == 0:
            return serving0.clone(), torch.zeros(0, dtype=torch.long), hyst, torch.tensor([state])
        ho = torch.stack(handovers) if handovers else torch.zeros(0, dtype=torch.long)
        return torch.stack(history), ho, hyst, torch.tensor([state])


def model():
    torch.manual_seed(3413)
    return HandoverFSM().eval()


def _drive(T, C, seed, fade_from=None):
    """UE driving past cells: each cell's RSRP peaks at a different time."""
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(T, dtype=torch.float32).unsqueeze(1)
    centres = torch.linspace(0, T, C).unsqueeze(0)
    rsrp = -80.0 - 30.0 * ((t - centres) / max(T / 2, 1.0)).abs() + 2.0 * torch.rand(T, C, generator=g)
    rsrp = rsrp + torch.arange(C, dtype=torch.float32) * 0.37  # break exact symmetries between cells
    if fade_from is not None:
        rsrp[fade_from:] = -140.0 + torch.rand(T - fade_from, C, generator=g)
    return rsrp


def example_inputs():
    return (_drive(40, 4, 1), torch.tensor([0]))


def dynamic_shapes():
    T = torch.export.Dim("samples", min=2, max=256)
    C = torch.export.Dim("cells", min=2, max=16)
    return ({0: T, 1: C}, None)


def verify_inputs():
    # hand-made two-cell trace
    serving = torch.full((24,), -90.0)
    neighbour = torch.full((24,), -100.0)
    neighbour[4:6] = -78.0    # 2-sample spike: A3 entered (TTT=1) then left -> counter reset
    neighbour[11:] = -78.0    # real handover to cell 1 after TTT (t=13)
    serving[11:] = -97.0
    serving[15:17] = -66.0    # old cell flares up right after the HO: blocked by the ping-pong guard
    serving[17:] = -105.0
    spike = torch.stack([serving, neighbour], dim=1)
    return [
        # drive past 4 cells: three handovers after the time-to-trigger
        example_inputs(),
        # coverage hole from sample 25: break with radio link failure after some history
        (_drive(40, 3, 2, fade_from=25), torch.tensor([0])),
        # already in a hole at t=0: break immediately, empty history -> early return
        (_drive(6, 2, 3, fade_from=0), torch.tensor([1])),
        # short neighbour spike (TTT started then reset), real handover, ping-pong guard blocks return
        (spike, torch.tensor([0])),
        # two samples, serving cell strongest: no handover at all
        (torch.tensor([[-85.0, -101.0], [-86.0, -99.5]]), torch.tensor([0])),
    ]
