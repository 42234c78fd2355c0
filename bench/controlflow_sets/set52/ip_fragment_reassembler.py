"""IPv4 datagram reassembly at a firewall (RFC 815 hole-descriptor algorithm):
fragments arrive in any order, holes are split/filled, reassembly stops as soon
as the datagram is complete, overlapping bytes are counted, and a small model
scores the fragment pattern for teardrop / tiny-fragment evasion attacks."""
import torch
import torch.nn as nn
from torch.export import Dim


class FragmentReassembler(nn.Module):
    def __init__(self):
        super().__init__()
        self.buffer_bytes = 512
        self.infinity = 65535
        self.tiny_fragment = 16
        self.attack_score = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))

    def split_holes(self, holes, first, last, more):
        remaining = []
        for hole_first, hole_last in holes:
            if first > hole_last or last < hole_first:
                remaining.append((hole_first, hole_last))  # fragment doesn't touch this hole
                continue
            if first > hole_first:
                remaining.append((hole_first, first - 1))
            if last < hole_last and more:
                remaining.append((last + 1, hole_last))
        return remaining

    def forward(self, offsets, lengths, more_frags, payload):
        # offsets: [F] in 8-byte units; lengths: [F] bytes; more_frags: [F] bool; payload: [F, 64]
        buffer = torch.zeros(self.buffer_bytes)
        written = torch.zeros(self.buffer_bytes)
        holes = [(torch.tensor(0), torch.tensor(self.infinity))]
        overlap = torch.zeros(())
        tiny = torch.zeros(())
        used = 0
        for f in range(offsets.shape[0]):
            first = offsets[f] * 8
            last = first + lengths[f] - 1
            if lengths[f] < self.tiny_fragment and more_frags[f]:
                tiny = tiny + 1.0
            holes = self.split_holes(holes, first, last, more_frags[f])
            start, n = int(first), int(lengths[f])
            overlap = overlap + written[start:start + n].sum()
            buffer[start:start + n] = payload[f, :n]
            written[start:start + n] = 1.0
            used += 1
            if not holes:
                complete = torch.tensor(1)
                break
        else:
            complete = torch.tensor(0)
        feats = torch.stack([torch.tensor(float(used)), overlap / 64.0, tiny, torch.tensor(float(len(holes)))])
        score = torch.sigmoid(self.attack_score(feats)).squeeze(0)
        return buffer * written, complete, torch.tensor(len(holes)), score


def model():
    torch.manual_seed(5213)
    return FragmentReassembler().eval()


def _frags(pieces, seed):
    """pieces: list of (offset_units, length_bytes, more_fragments)."""
    g = torch.Generator().manual_seed(seed)
    offsets = torch.tensor([p[0] for p in pieces])
    lengths = torch.tensor([p[1] for p in pieces])
    more = torch.tensor([p[2] for p in pieces])
    payload = torch.rand(len(pieces), 64, generator=g)
    return offsets, lengths, more, payload


def example_inputs():
    # 3 fragments out of order: middle, last, first
    return _frags([(8, 64, True), (16, 40, False), (0, 64, True)], 1)


def dynamic_shapes():
    frags = Dim("fragments", min=2, max=32)
    return {0: frags}, {0: frags}, {0: frags}, {0: frags}


def verify_inputs():
    in_order = [(2 * i, 16, i < 31) for i in range(32)]
    overlapping = [(0, 64, True), (4, 64, True), (12, 48, True), (18, 8, True), (16, 64, False), (10, 40, True)]
    return [
        example_inputs(),                                 # out of order, completes on the last fragment
        _frags([(0, 64, True), (8, 30, False)], 2),       # min fragments, in order, completes
        _frags(in_order, 3),                              # max fragments in order (512 bytes), completes at the end
        _frags([(0, 64, True), (16, 64, False)], 4),      # missing middle fragment -> for/else, incomplete
        _frags(overlapping, 5),                           # overlaps, tiny fragment, completes before the duplicate at the end
        _frags([(4, 8, True), (0, 64, True), (0, 8, True), (8, 8, True)], 6),  # tiny frags, hole split in two, never completes
    ]
