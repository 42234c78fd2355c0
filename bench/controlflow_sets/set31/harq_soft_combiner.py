"""Hybrid-ARQ receiver: chase combining of retransmissions + bit-flip decoding.

A (12, 6) linear block code is sent up to R times.  Slots where the
transmitter was silent (DTX) are skipped, the other receptions are combined
with a learned per-slot reliability weight, and after each new reception the
combined soft bits are decoded with weighted bit flipping until the parity
checks pass.  Stops at the first successful decode (ACK).
"""
import torch
import torch.nn as nn

# systematic parity-check matrix H = [P | I6]
_P = [[1, 1, 0, 1, 0, 0],
      [0, 1, 1, 0, 1, 0],
      [1, 0, 1, 0, 0, 1],
      [1, 1, 1, 0, 0, 0],
      [0, 0, 1, 1, 1, 0],
      [0, 1, 0, 0, 1, 1]]


def syndrome(H, bits):
    return torch.remainder(H @ bits, 2.0)


def bit_flip_decode(H, llr, max_iter):
    """Weighted bit flipping: flip the least reliable bit sitting in the most failed checks."""
    bits = (llr < 0).float()
    s = syndrome(H, bits)
    it = 0
    while s.any() and it < max_iter:
        unsatisfied = (H * s[:, None]).sum(0)
        j = torch.argmax(unsatisfied - 0.1 * llr.abs())
        bits[j] = 1.0 - bits[j]
        s = syndrome(H, bits)
        it += 1
    return bits, s


class HarqReceiver(nn.Module):
    def __init__(self, max_iter=6, dtx_level=0.2):
        super().__init__()
        p = torch.tensor(_P, dtype=torch.float32)
        self.register_buffer("H", torch.cat([p, torch.eye(6)], dim=1))
        self.max_iter = max_iter
        self.dtx_level = dtx_level
        self.reliability = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, llrs):
        # llrs: [R, 12] soft bits (positive = 0) of each (re)transmission
        n = self.H.shape[1]
        combined = torch.zeros(n)
        bits = torch.zeros(n)
        ack = torch.zeros(())
        used = 0
        for r in range(llrs.shape[0]):
            rx = llrs[r]
            if rx.abs().mean() < self.dtx_level:
                # discontinuous transmission: nothing was sent in this slot
                continue
            stats = torch.stack([rx.abs().mean() / 4.0, rx.std() / 4.0])
            w = 1.0 + 0.1 * torch.tanh(self.reliability(stats)).squeeze()
            combined = combined + w * rx
            used += 1
            bits, s = bit_flip_decode(self.H, combined, self.max_iter)
            if not s.any():
                ack = torch.ones(())
                break
        return bits, ack, torch.tensor(used)


def model():
    torch.manual_seed(47)
    return HarqReceiver().eval()


def _make_codeword(msg):
    m = torch.tensor(msg, dtype=torch.float32)
    parity = torch.remainder(torch.tensor(_P, dtype=torch.float32) @ m, 2.0)
    return torch.cat([m, parity])


def _make_rx(code, amp, errors, seed, noise=0.4):
    """Soft bits of one reception; `errors` maps bit -> wrong-sign magnitude."""
    g = torch.Generator().manual_seed(seed)
    llr = (1.0 - 2.0 * code) * (amp + noise * torch.rand(12, generator=g))
    for b, mag in errors.items():
        llr[b] = -(1.0 - 2.0 * code[b]) * mag
    return llr


_CW = _make_codeword([1, 0, 1, 1, 0, 0])


def example_inputs():
    return (torch.stack([
        _make_rx(_CW, 1.0, {0: 1.5, 4: 1.4, 9: 1.3, 10: 1.2}, 0),  # four errors: decoding fails
        torch.zeros(12),                                   # DTX slot
        _make_rx(_CW, 2.5, {}, 1),                         # clean: combined decodes
        _make_rx(_CW, 2.0, {}, 2),                         # never needed
    ]),)


def dynamic_shapes():
    return ({0: torch.export.Dim("tx", min=2, max=8)},)


def verify_inputs():
    return [
        # fail (flip loop hits max_iter) -> DTX skip -> success on combining -> break
        example_inputs(),
        # clean first reception: no flips needed, break at r=0
        (torch.stack([_make_rx(_CW, 3.0, {}, 3), _make_rx(_CW, 3.0, {}, 4)]),),
        # one weak wrong bit: exactly one flip fixes it
        (torch.stack([_make_rx(_CW, 3.0, {7: 0.3}, 5), _make_rx(_CW, 3.0, {}, 6)]),),
        # all slots DTX: nothing decoded
        (torch.zeros(3, 12),),
        # deep fade on every slot, same wrong bits each time: never decodes (loop completes)
        (torch.stack([_make_rx(_CW, 0.6, {0: 2.0, 1: 2.0, 2: 2.0, 6: 2.0}, 7 + k) for k in range(4)]),),
    ]
