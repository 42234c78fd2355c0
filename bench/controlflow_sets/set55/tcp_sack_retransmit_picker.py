"""TCP SACK-based loss recovery (RFC 6675 style) with a learned loss classifier.

Given the start sequence numbers of the outstanding segments, the SACK blocks
from the latest ACK, the current congestion window (segments) and recent RTT
samples, each segment is classified as SACKed, in flight, lost and
retransmitted now, or lost but waiting for window. A small learned model on
the RTT trend decides whether the losses look like congestion (halve-ish the
window) or random wireless loss (reduce gently).
"""
import torch
import torch.nn as nn

SACKED, IN_FLIGHT, RETRANSMIT, WAITING = 0, 1, 2, 3


def sacked_bytes_above(seq, blocks):
    return torch.stack([(blk[1] - torch.maximum(blk[0], seq)).clamp(min=0) for blk in blocks]).sum()


class SackRetransmitPicker(nn.Module):
    def __init__(self, mss=1460, dupthresh=3):
        super().__init__()
        self.mss = mss
        self.dupthresh = dupthresh
        self.loss_classifier = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, seg_starts, sack_blocks, cwnd, rtt_ms):
        rtt_feats = torch.stack([rtt_ms.mean() / 100.0, rtt_ms.std() / 50.0,
                                 (rtt_ms[-1] - rtt_ms.min()) / (rtt_ms.min() + 1.0)])
        # prior: queueing delay building up is the classic congestion signature
        logit = self.loss_classifier(rtt_feats).squeeze(0) + 4.0 * (rtt_feats[2] - 0.25)
        p_congestion = torch.sigmoid(logit)
        beta = 0.7 if p_congestion > 0.5 else 0.9
        new_cwnd = torch.floor(cwnd.float() * beta)

        budget = int(new_cwnd.item())
        states = []
        for i in range(seg_starts.shape[0]):
            start = seg_starts[i]
            end = start + self.mss
            for b in range(sack_blocks.shape[0]):
                if sack_blocks[b, 0] <= start and end <= sack_blocks[b, 1]:
                    states.append(torch.tensor(SACKED))
                    break
            else:
                if sacked_bytes_above(end, sack_blocks) < self.dupthresh * self.mss:
                    states.append(torch.tensor(IN_FLIGHT))
                    continue
                if budget > 0:
                    states.append(torch.tensor(RETRANSMIT))
                    budget -= 1
                else:
                    states.append(torch.tensor(WAITING))
        states = torch.stack(states)
        n_retx = (states == RETRANSMIT).sum()
        return states, new_cwnd.long(), n_retx, p_congestion


def model():
    torch.manual_seed(5514)
    return SackRetransmitPicker().eval()


def _flight(n_segs, holes, cwnd, rtt_base, rtt_trend, n_rtt, seed, isn=1_000_000):
    """holes: list of (first, last) segment indices NOT covered by SACK blocks."""
    g = torch.Generator().manual_seed(seed)
    mss = 1460
    starts = isn + mss * torch.arange(n_segs)
    covered = torch.ones(n_segs, dtype=torch.bool)
    covered[0] = False                         # the cumulative-ACK hole
    for a, b in holes:
        covered[a:b + 1] = False
    blocks = []
    i = 0
    while i < n_segs:
        if covered[i]:
            j = i
            while j + 1 < n_segs and covered[j + 1]:
                j += 1
            blocks.append([int(starts[i]), int(starts[j]) + mss])
            i = j + 1
        else:
            i += 1
    blocks = blocks[-4:] if len(blocks) >= 2 else blocks + [[isn - 2 * mss, isn - mss]] * (2 - len(blocks))
    rtt = rtt_base + rtt_trend * torch.arange(n_rtt, dtype=torch.float32) + torch.rand(n_rtt, generator=g)
    return starts, torch.tensor(blocks, dtype=torch.long), torch.tensor([cwnd]), rtt


def example_inputs():
    return _flight(20, [(5, 6), (12, 12)], 10, 40.0, 0.5, 16, 1)


def dynamic_shapes():
    segs = torch.export.Dim("segments", min=2, max=128)
    blocks = torch.export.Dim("sack_blocks", min=2, max=4)
    rtts = torch.export.Dim("rtt_samples", min=2, max=64)
    return ({0: segs}, {0: blocks}, None, {0: rtts})


def verify_inputs():
    return [
        example_inputs(),                                        # 3 holes, flat RTT -> gentle backoff, window covers every lost segment
        _flight(2, [], 4, 30.0, 0.0, 2, 2),                      # segments=min, rtt=min, 2 blocks: head not lost yet (in flight)
        _flight(128, [(3, 9), (40, 41), (70, 70), (100, 104)],
                6, 120.0, 8.0, 64, 3),                           # segments=max, 4 blocks, rtt=max: window runs out -> waiting
        _flight(30, [(2, 3), (27, 29)], 1, 20.0, 0.0, 8, 4),     # cwnd 1 -> budget 0, tail hole still in flight
        _flight(16, [(4, 4), (8, 8)], 20, 200.0, 15.0, 12, 5),   # rising RTT -> congestion backoff (beta 0.7), all lost retransmitted
    ]
