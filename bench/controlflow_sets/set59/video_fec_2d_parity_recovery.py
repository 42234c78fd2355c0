"""Broadcast video over IP: 2-D XOR parity FEC recovery (SMPTE 2022-1 style).

Media packets of one FEC block form an R x C matrix; the sender adds one XOR
parity packet per row and one per column.  The receiver zeroes the lost
packets and iterates: any row or column with exactly one missing packet
gets it back as the XOR of its parity and the surviving packets.  Recovering
a packet in a column can unlock a row and vice versa, so passes repeat until
everything is back, no pass makes progress (a burst too wide for the
matrix), or the round limit is hit.  Each payload ends in a checksum byte;
a recovered packet that fails it (damaged parity) is not accepted.
"""
import torch
import torch.nn as nn


class Fec2DRecovery(nn.Module):
    def __init__(self):
        super().__init__()
        self.max_rounds = 3

    def checksum_ok(self, pkt):
        return bool(pkt[:-1].sum() % 256 == pkt[-1])

    def xor_missing(self, line, missing, parity):
        """Single missing packet of a row/column: (index, payload), else (-1, None)."""
        if missing.sum() != 1:
            return -1, None
        idx = int(torch.nonzero(missing)[0])
        rec = parity.clone()
        for j in range(line.shape[0]):
            if j != idx:
                rec = torch.bitwise_xor(rec, line[j])
        return idx, rec

    def forward(self, data, row_parity, col_parity, lost):
        rows, cols = lost.shape
        missing = lost > 0
        pkts = torch.where(missing.unsqueeze(-1), torch.zeros_like(data), data)
        if not missing.any():
            return pkts, missing.long(), torch.tensor(0), torch.tensor(0)

        rounds, rejected = 0, 0
        while missing.any() and rounds < self.max_rounds:
            progress = False
            for r in range(rows):
                idx, rec = self.xor_missing(pkts[r], missing[r], row_parity[r])
                if idx < 0:
                    continue
                if not self.checksum_ok(rec):
                    rejected += 1
                    continue
                pkts[r, idx] = rec
                missing[r, idx] = False
                progress = True
            for c in range(cols):
                idx, rec = self.xor_missing(pkts[:, c], missing[:, c], col_parity[c])
                if idx < 0:
                    continue
                if not self.checksum_ok(rec):
                    rejected += 1
                    continue
                pkts[idx, c] = rec
                missing[idx, c] = False
                progress = True
            rounds += 1
            if not progress:
                break  # stuck: leave the rest to error concealment
        return pkts, missing.long(), torch.tensor(rounds), torch.tensor(rejected)


def model():
    torch.manual_seed(5915)
    return Fec2DRecovery().eval()


def make_block(rows, cols, payload, lost_cells, seed, bad_row_parity=(), bad_col_parity=()):
    g = torch.Generator().manual_seed(seed)
    body = torch.randint(0, 256, (rows, cols, payload - 1), generator=g)
    csum = body.sum(-1, keepdim=True) % 256
    data = torch.cat([body, csum], -1)
    row_par = data[:, 0].clone()
    for c in range(1, cols):
        row_par = torch.bitwise_xor(row_par, data[:, c])
    col_par = data[0].clone()
    for r in range(1, rows):
        col_par = torch.bitwise_xor(col_par, data[r])
    for r in bad_row_parity:
        row_par[r, 0] = torch.bitwise_xor(row_par[r, 0], torch.tensor(0x5A))
    for c in bad_col_parity:
        col_par[c, 1] = torch.bitwise_xor(col_par[c, 1], torch.tensor(0x21))
    lost = torch.zeros(rows, cols, dtype=torch.long)
    for r, c in lost_cells:
        lost[r, c] = 1
    return data, row_par, col_par, lost


def example_inputs():
    # 5 x 6 block, 32-byte payloads; an L-shaped burst plus a single loss
    return make_block(5, 6, 32, [(0, 0), (0, 1), (1, 0), (3, 4)], 1)


def dynamic_shapes():
    r = torch.export.Dim("fec_rows", min=2, max=8)
    c = torch.export.Dim("fec_cols", min=2, max=8)
    b = torch.export.Dim("payload", min=4, max=64)
    return ({0: r, 1: c, 2: b}, {0: r, 1: b}, {0: c, 1: b}, {0: r, 1: c})


def verify_inputs():
    ex = example_inputs()
    # 2 x 2 block, 4-byte payloads, nothing lost -> early return
    clean = make_block(2, 2, 4, [], 2)
    # 8 x 8 block, 64-byte payloads: a 2x2 square of losses cannot be repaired
    # (every row / column through it misses two) -> no progress, stop
    square = make_block(8, 8, 64, [(2, 2), (2, 3), (3, 2), (3, 3), (6, 1)], 3)
    # damaged parity packets: row 1's repair of (1, 2) is rejected and the column pass
    # fixes it; column 1's repair of (2, 1) is rejected, (2, 3) comes back through its
    # column, and the next round's row pass then recovers (2, 1)
    damaged = make_block(3, 4, 16, [(1, 2), (2, 1), (2, 3)], 4, bad_row_parity=(1,),
                         bad_col_parity=(1,))
    # staircase burst across an 8 x 8 block: unwinds from both ends one packet per
    # pass and runs into the round limit
    chain = make_block(8, 8, 8, [(i, i) for i in range(8)] + [(i, i + 1) for i in range(7)], 5)
    return [ex, clean, square, damaged, chain]
