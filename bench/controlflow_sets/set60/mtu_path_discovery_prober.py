"""Packetization-layer path MTU discovery (RFC 8899 style): binary search with probe
packets, retries on loss, ICMP Packet-Too-Big shortcuts and a finite probe budget."""
import torch
import torch.nn as nn
from torch.export import Dim

BASE_PLPMTU = 1200.0
TRACE_LEN = 16


def first_too_small(hop_mtu, size):
    """Index of the first link that cannot carry `size` bytes."""
    for h in range(hop_mtu.shape[0]):
        if hop_mtu[h] < size:
            return h
    return -1


class PmtuProber(nn.Module):
    def __init__(self, resolution=8.0):
        super().__init__()
        self.resolution = resolution
        self.loss_net = nn.Linear(2, 1)  # learned path loss estimate from path features

    def forward(self, hop_mtu, icmp_ok, noise):
        # hop_mtu (H,) bytes per link; icmp_ok (H,) router sends PTB; noise (K,) loss draws
        feats = torch.stack([torch.tensor(hop_mtu.shape[0] / 16.0), hop_mtu.mean() / 9000.0])
        p_loss = 0.5 * torch.sigmoid(self.loss_net(feats)).squeeze()
        max_tries = 2 + int((8.0 * p_loss).item())
        lo, hi = torch.tensor(BASE_PLPMTU), hop_mtu[0].clone()  # search window
        k, trace = 0, []
        while hi - lo > self.resolution:
            size = torch.floor((lo + hi) / 2.0)
            acked = ptb = False
            for _ in range(max_tries):
                if k >= noise.shape[0]:
                    break
                lost, k = bool(noise[k] < p_loss), k + 1
                hop = first_too_small(hop_mtu, size)
                if hop >= 0:
                    if icmp_ok[hop] > 0.5:
                        hi, ptb = hop_mtu[hop].clone(), True  # PTB carries the next-hop MTU
                        break
                    continue  # silently dropped: looks exactly like loss
                if lost:
                    continue
                acked = True
                break
            trace.append(size)
            if acked:
                lo = size
            elif not ptb:
                if k >= noise.shape[0]:
                    break  # probe budget spent: keep the last confirmed size
                hi = size - 1.0  # every try failed: assume too big
        if len(trace) == 0:
            return lo, torch.tensor(k), torch.zeros(TRACE_LEN)
        trace = torch.stack(trace[:TRACE_LEN])
        return lo, torch.tensor(k), torch.cat([trace, torch.zeros(TRACE_LEN - trace.shape[0])])


def model():
    torch.manual_seed(6016)
    return PmtuProber().eval()


def _path(mtus, icmp, k, seed, lossy=False):
    g = torch.Generator().manual_seed(seed)
    noise = torch.rand(k, generator=g)
    if lossy:
        noise = noise * 0.2
    return torch.tensor(mtus, dtype=torch.float32), torch.tensor(icmp, dtype=torch.float32), noise


def example_inputs():
    return _path([9000, 9000, 1500, 9000, 4470], [1, 1, 0, 1, 1], 24, 1)


def dynamic_shapes():
    h = Dim("hops", min=2, max=16)
    return ({0: h}, {0: h}, {0: Dim("probes", min=2, max=64)})


def verify_inputs():
    return [
        _path([9000, 9000, 1500, 9000, 4470], [1, 1, 0, 1, 1], 24, 1),  # example: ICMP filtered
        _path([9000, 1400], [0, 0], 2, 2),                 # min: budget runs out mid-search
        _path([9000] * 7 + [1492] + [9000] * 8, [1] * 16, 64, 3),  # max: PTB shortcut
        _path([9000, 2000, 1500], [1, 0, 1], 40, 4, lossy=True),   # heavy loss: falls to base
        _path([1204, 1500], [1, 1], 8, 5),                 # local MTU already at the base
    ]
