"""Sender-side TCP congestion control replayed over an ACK trace.

A slow-start / congestion-avoidance / fast-recovery state machine, with a
delay-based (Vegas-like) avoidance phase whose queueing budget is adjusted by
a small learned network, ECN marks treated like losses, retransmission
timeouts resetting to slow start, and the connection declared dead after
three consecutive timeouts.  Produces the congestion-window trace.
"""
import torch
import torch.nn as nn

SLOW_START, AVOIDANCE, RECOVERY = 0, 1, 2


class CongestionController(nn.Module):
    def __init__(self, init_cwnd=10.0, init_ssthresh=24.0, beta=0.7, ecn_enabled=True):
        super().__init__()
        self.init_cwnd = init_cwnd
        self.init_ssthresh = init_ssthresh
        self.beta = beta
        self.ecn_enabled = ecn_enabled
        self.alpha = 3.0          # packets we are willing to keep queued at the bottleneck
        self.rto_ms = 1000.0
        self.max_timeouts = 3
        self.min_cwnd = 2.0
        self.delay_net = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, acks):
        # acks: [E, 3] per ACK event: RTT sample (ms), loss flag, ECN-echo flag
        cwnd = torch.tensor(self.init_cwnd)
        ssthresh = torch.tensor(self.init_ssthresh)
        min_rtt = acks[0, 0]
        state = SLOW_START
        recovery_acks = 0
        timeouts = 0
        trace = []
        for i in range(acks.shape[0]):
            rtt, lost, ecn = acks[i].unbind()
            if rtt > self.rto_ms:
                timeouts += 1
                if timeouts >= self.max_timeouts:
                    break   # peer unreachable: the connection is torn down
                ssthresh = torch.clamp(cwnd * 0.5, min=self.min_cwnd)
                cwnd = torch.ones(())
                state = SLOW_START
                trace.append(cwnd)
                continue
            timeouts = 0
            min_rtt = torch.minimum(min_rtt, rtt)
            if lost > 0 or (self.ecn_enabled and ecn > 0):
                if state != RECOVERY:
                    # multiplicative decrease, once per loss episode
                    ssthresh = torch.clamp(cwnd * self.beta, min=self.min_cwnd)
                    cwnd = ssthresh
                    state = RECOVERY
                recovery_acks = 3
                trace.append(cwnd)
                continue
            if state == RECOVERY:
                recovery_acks -= 1
                if recovery_acks == 0:
                    state = AVOIDANCE
            elif state == SLOW_START:
                cwnd = cwnd + 1.0
                if cwnd >= ssthresh:
                    state = AVOIDANCE
            else:
                queued = cwnd * (1.0 - min_rtt / rtt)
                feats = torch.stack([rtt / min_rtt, cwnd / 100.0, queued / 10.0])
                alpha = self.alpha + 0.5 * torch.tanh(self.delay_net(feats)).squeeze()
                if queued > alpha:
                    cwnd = torch.clamp(cwnd - 1.0, min=self.min_cwnd)
                else:
                    cwnd = cwnd + 1.0 / cwnd
            trace.append(cwnd)
        return torch.stack(trace), ssthresh


def model():
    torch.manual_seed(43)
    return CongestionController().eval()


def _make_acks(rtts, losses=(), ecns=()):
    e = len(rtts)
    lost = torch.zeros(e)
    ecn = torch.zeros(e)
    lost[list(losses)] = 1.0
    ecn[list(ecns)] = 1.0
    return (torch.stack([torch.tensor(rtts, dtype=torch.float32), lost, ecn], dim=1),)


def example_inputs():
    # slow start to ssthresh, delay-based avoidance with a queue building up, a loss
    # burst (two losses in a row), recovery, back to avoidance
    rtts = ([40.3] * 16 + [41.1, 43.7, 47.9, 55.2, 62.6, 68.4, 66.1, 58.3]
            + [44.2] * 4 + [40.9] * 6)
    return _make_acks(rtts, losses=(24, 25))


def dynamic_shapes():
    return ({0: torch.export.Dim("events", min=2, max=1024)},)


def verify_inputs():
    return [
        # all three states, consecutive losses (state already RECOVERY), both Vegas branches
        example_inputs(),
        # ECN mark without loss during slow start, then recovery -> avoidance
        _make_acks([30.2] * 5 + [31.0] * 8, ecns=(3,)),
        # one timeout (back to slow start), then normal ACKs
        _make_acks([50.5, 51.2, 1500.0, 50.8, 50.6, 50.9]),
        # three consecutive timeouts: connection dropped (break)
        _make_acks([80.1, 1200.0, 1300.0, 1400.0, 80.4]),
        # two events only
        _make_acks([25.3, 25.9]),
    ]
