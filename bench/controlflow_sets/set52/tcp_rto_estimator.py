"""TCP sender retransmission timer (RFC 6298 with Karn's algorithm): runs the
SRTT/RTTVAR estimator over a trace of ACK samples, backs the timer off on
retransmitted segments, and adds a learned jitter margin to the final RTO."""
import torch
import torch.nn as nn
from torch.export import Dim


class RtoEstimator(nn.Module):
    def __init__(self):
        super().__init__()
        self.alpha = 1.0 / 8.0
        self.beta = 1.0 / 4.0
        self.k = 4.0
        self.clock_granularity_ms = 10.0
        self.initial_rto_ms = 1000.0
        self.min_rto_ms = 200.0
        self.max_rto_ms = 60000.0
        self.jitter_net = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))

    def clamp_rto(self, rto):
        if rto < self.min_rto_ms:
            return torch.full_like(rto, self.min_rto_ms)
        return torch.clamp(rto, max=self.max_rto_ms)

    def forward(self, rtt_ms, retransmitted):
        srtt = None
        rttvar = torch.zeros(())
        rto = torch.tensor(self.initial_rto_ms)
        trace = []
        for i in range(rtt_ms.shape[0]):
            if retransmitted[i]:
                # Karn: ambiguous sample, don't measure; exponential backoff instead
                rto = torch.clamp(rto * 2.0, max=self.max_rto_ms)
                trace.append(rto)
                continue
            sample = rtt_ms[i]
            if srtt is None:
                srtt = sample
                rttvar = sample / 2.0
            else:
                rttvar = (1.0 - self.beta) * rttvar + self.beta * (srtt - sample).abs()
                srtt = (1.0 - self.alpha) * srtt + self.alpha * sample
            rto = self.clamp_rto(srtt + torch.clamp(self.k * rttvar, min=self.clock_granularity_ms))
            trace.append(rto)
        if srtt is None:
            srtt = torch.tensor(self.initial_rto_ms)  # never got a clean sample
        feats = torch.stack([srtt, rttvar, rto]) / 1000.0
        margin = 0.05 * rto * torch.sigmoid(self.jitter_net(feats)).squeeze(0)
        return torch.stack(trace), srtt, rto + margin


def model():
    torch.manual_seed(5203)
    return RtoEstimator().eval()


def example_inputs():
    g = torch.Generator().manual_seed(11)
    rtt = 80.0 + 40.0 * torch.rand(40, generator=g)
    rexmit = torch.zeros(40, dtype=torch.bool)
    rexmit[[7, 8, 21]] = True
    return rtt, rexmit


def dynamic_shapes():
    acks = Dim("acks", min=2, max=400)
    return {0: acks}, {0: acks}


def verify_inputs():
    g = torch.Generator().manual_seed(12)
    lan = 0.5 + 0.3 * torch.rand(400, generator=g)
    sat = 550.0 + 300.0 * torch.rand(25, generator=g)
    sat_rx = torch.rand(25, generator=g) > 0.7
    sat_rx[0] = True
    return [
        example_inputs(),  # mixed: first sample initialises, later smoothing, 3 backoffs
        (lan, torch.zeros(400, dtype=torch.bool)),             # max acks, LAN RTTs -> RTO below floor -> min_rto branch
        (torch.tensor([120.0, 130.0]), torch.tensor([True, True])),  # min acks, all retransmitted -> srtt stays None
        (sat, sat_rx),                                          # satellite link, first ack retransmitted, backoff + big RTO
        (torch.tensor([30000.0, 45000.0, 40000.0]), torch.tensor([False, False, True])),  # huge RTT -> clamp at max
    ]
