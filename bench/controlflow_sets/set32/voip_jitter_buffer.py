"""Receive-side jitter buffer with packet-loss concealment for a VoIP call.

Kind X. Constructs: 1, 2, 4, 5, 6, 7.
Packets (20 ms codec frames, each a feature vector) are processed in
arrival order.  The RFC 3550 interarrival-jitter estimate is updated per
packet; packets older than the playout point are dropped, gaps are filled
frame by frame with a learned concealment predictor (which fades out and
goes silent after a few consecutive losses), a huge sequence jump resyncs
the stream, and once the jitter blows past the budget the buffer gives up
and signals a renegotiation.  Output: the playout frames, the jitter
estimate (ms) and [late, concealed, renegotiate] counters.
"""
import torch
import torch.nn as nn

FRAME_MS = 20.0


class Concealer(nn.Module):
    def __init__(self, dim, max_fade=3):
        super().__init__()
        self.pred = nn.Linear(dim, dim)
        self.max_fade = max_fade

    def forward(self, last, n_lost):
        if last.abs().max() < 1e-3:
            return last  # silence stays silence
        if n_lost > self.max_fade:
            return torch.zeros_like(last)  # long burst: mute rather than buzz
        return 0.7 * torch.tanh(self.pred(last))


class JitterBuffer(nn.Module):
    def __init__(self, dim=8, max_gap=50, jitter_budget_ms=60.0):
        super().__init__()
        self.max_gap = max_gap
        self.jitter_budget = jitter_budget_ms
        self.conceal = Concealer(dim)

    def forward(self, seq, arrival_ms, frames):
        out = [frames[0]]
        expected = seq[0] + 1
        prev_transit = arrival_ms[0] - seq[0] * FRAME_MS
        jitter = torch.zeros(())
        late = torch.zeros((), dtype=torch.long)
        concealed = torch.zeros((), dtype=torch.long)
        renegotiate = torch.zeros((), dtype=torch.long)
        for i in range(1, seq.shape[0]):
            transit = arrival_ms[i] - seq[i] * FRAME_MS
            jitter = jitter + ((transit - prev_transit).abs() - jitter) / 16.0
            prev_transit = transit
            if seq[i] < expected:
                late = late + 1  # already concealed / duplicate
                continue
            if seq[i] - expected > self.max_gap:
                expected = seq[i]  # sender restarted numbering: resync, no concealment
            lost = 0
            while expected < seq[i]:
                lost += 1
                out.append(self.conceal(out[-1], lost))
                concealed = concealed + 1
                expected = expected + 1
            out.append(frames[i])
            expected = expected + 1
            if jitter > self.jitter_budget:
                renegotiate = renegotiate + 1
                break
        return torch.stack(out), jitter, torch.stack([late, concealed, renegotiate])


def model():
    torch.manual_seed(3215)
    return JitterBuffer().eval()


def _call(seqs, delays, seed=0, silent=()):
    g = torch.Generator().manual_seed(seed)
    seq = torch.tensor(seqs, dtype=torch.long)
    arrival = seq.float() * FRAME_MS + torch.tensor(delays, dtype=torch.float32)
    frames = torch.randn(len(seqs), 8, generator=g)
    for k in silent:
        frames[k] = 0.0
    return seq, arrival, frames


def example_inputs():
    # in-order stream with one lost packet (seq 4) and mild jitter
    return _call([0, 1, 2, 3, 5, 6, 7, 8], [40.0, 43.0, 38.0, 45.0, 41.0, 39.0, 44.0, 42.0])


def dynamic_shapes():
    p = torch.export.Dim("packets", min=4, max=512)
    return ({0: p}, {0: p}, {0: p})


def verify_inputs():
    return [
        example_inputs(),                                                        # one concealed frame (while once)
        _call([0, 1, 2, 3, 4, 5], [30.0, 31.0, 33.0, 30.0, 32.0, 31.0], seed=1),   # perfect stream: while never runs
        _call([10, 11, 13, 12, 14, 15], [30.0, 32.0, 31.0, 70.0, 33.0, 30.0], seed=2),  # reordered: 12 arrives late -> continue
        _call([0, 1, 7, 8, 9], [40.0, 42.0, 41.0, 40.0, 43.0], seed=3),           # burst of 5 lost: fade then mute
        _call([0, 1, 4, 5, 6], [40.0, 41.0, 40.0, 42.0, 40.0], seed=5, silent=(1,)),  # loss after a silent frame: stays silent
        _call([100, 101, 102, 400, 401, 402], [40.0, 41.0, 42.0, 40.0, 41.0, 43.0], seed=6),  # sequence jump: resync
        _call([0, 1, 2, 3, 4, 5, 6], [40.0, 400.0, 1200.0, 2500.0, 3900.0, 41.0, 42.0], seed=7),  # jitter blow-up -> break
    ]
