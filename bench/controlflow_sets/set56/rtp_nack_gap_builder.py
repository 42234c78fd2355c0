"""RTP video receiver: NACK list, key-frame request and jitter-buffer target.

Packets are given in arrival order with their 16-bit sequence numbers and
(media timestamp, arrival time) in milliseconds.  The receiver unwraps the
sequence numbers, keeps the list of holes to NACK (holes filled by late or
retransmitted packets are removed, holes older than the NACK horizon are
given up), asks for a key frame (PLI) when a burst is too long to repair, runs
the RFC 3550 interarrival-jitter estimator and lets a small network pick the
jitter-buffer delay.
"""
import torch
import torch.nn as nn


class NackBuilder(nn.Module):
    def __init__(self):
        super().__init__()
        self.delay_net = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 1))
        self.max_nack_burst = 16
        self.max_nack_age = 100      # packets

    def unwrap(self, seq):
        out = [seq[0]]
        cycles = 0
        for i in range(1, seq.shape[0]):
            delta = seq[i] - seq[i - 1]
            if delta < -32768:
                cycles += 65536          # wrapped forward
            elif delta > 32768:
                cycles -= 65536          # a straggler from before the wrap
            out.append(seq[i] + cycles)
        return torch.stack(out)

    def forward(self, seq, timing):
        # seq: (P,) int64, timing: (P, 2) media ms, arrival ms
        ext = self.unwrap(seq)
        highest = ext[0]
        missing = []
        pli = torch.tensor(0)
        jitter = torch.zeros(())
        for i in range(1, ext.shape[0]):
            transit_delta = (timing[i, 1] - timing[i - 1, 1]) - (timing[i, 0] - timing[i - 1, 0])
            jitter = jitter + (transit_delta.abs() - jitter) / 16.0
            s = ext[i]
            if s > highest:
                gap = int((s - highest - 1).item())
                if gap > self.max_nack_burst:
                    # unrepairable burst: drop pending NACKs and ask for a key frame
                    pli = torch.tensor(1)
                    missing = []
                    highest = s
                    continue
                for k in range(gap):
                    missing.append(highest + 1 + k)
                highest = s
                missing = [m for m in missing if highest - m <= self.max_nack_age]
            else:
                # late or retransmitted packet fills its hole
                missing = [m for m in missing if not bool(m == s)]

        nacks = torch.stack(missing) % 65536 if missing else torch.zeros(0, dtype=torch.long)
        loss = torch.tensor(len(missing) / ext.shape[0])
        delay = 2.0 * jitter + 10.0 * nn.functional.softplus(
            self.delay_net(torch.stack([jitter / 30.0, loss, pli.float()])))[0]
        return nacks, pli, jitter.reshape(1), delay.reshape(1)


def model():
    torch.manual_seed(5613)
    return NackBuilder().eval()


def _stream(start, n, drop=(), swap=(), seed=0):
    g = torch.Generator().manual_seed(seed)
    seqs = [(start + i) % 65536 for i in range(n)]
    media = [i * 11.0 for i in range(n)]
    order = list(range(n))
    for a, b in swap:
        order[a], order[b] = order[b], order[a]
    keep = [i for i in order if i not in set(drop)]
    seq = torch.tensor([seqs[i] for i in keep])
    media_t = torch.tensor([media[i] for i in keep])
    arrival = media_t + 40.0 + 6.0 * torch.rand(len(keep), generator=g)
    return seq, torch.stack([media_t, arrival], dim=1)


def example_inputs():
    # 52 packets sent, 5 and 20-21 lost, 33 arrives after 35 (reordered)
    return _stream(1200, 52, drop=(5, 20, 21), swap=((33, 35),), seed=1)


def dynamic_shapes():
    p = torch.export.Dim("packets", min=2, max=300)
    return ({0: p}, {0: p})


def verify_inputs():
    long_seq, long_timing = _stream(9000, 321, drop=(10, 11, 250) + tuple(range(200, 218)), seed=3)
    return [
        # 49 arrivals: holes 5, 20, 21 NACKed; reordered 33 fills its temporary hole
        example_inputs(),
        # min 2 packets across the 65535 -> 0 wrap with 65535 lost -> NACK 65535
        (torch.tensor([65534, 0]), torch.tensor([[0.0, 40.0], [22.0, 63.5]])),
        # max 300 arrivals: holes 10, 11 age past the 100-packet horizon, then an
        # 18-packet burst -> PLI; the later hole 250 is NACKed
        (long_seq, long_timing),
        # 65535 arrives after 1 and 0 (wrap + reorder): NACKed, then filled by the straggler
        _stream(65530, 12, swap=((5, 7),), seed=4),
    ]
