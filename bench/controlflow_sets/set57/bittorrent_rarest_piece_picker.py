"""Piece picker of a BitTorrent client.

Given the bitfields of the connected peers, what we already have and the
measured upload rate of each peer (0 = we are choked), build the next batch
of block requests.  Normal mode is rarest-first: the missing piece held by
the fewest unchoked peers goes first (lower index wins ties) and is asked
from the fastest peer that has it and still has a free request slot.  When
only a handful of pieces are missing the client switches to endgame mode
and asks every peer that has a missing piece for it.
"""
import torch
import torch.nn as nn


class PiecePicker(nn.Module):
    def __init__(self, slots_per_peer=2, max_requests=16, endgame_pieces=3):
        super().__init__()
        self.slots_per_peer = slots_per_peer
        self.max_requests = max_requests
        self.endgame_pieces = endgame_pieces

    def endgame_requests(self, peer_has, wanted, unchoked):
        requests = []
        for k in range(peer_has.shape[1]):
            if not wanted[k]:
                continue
            for p in range(peer_has.shape[0]):
                if peer_has[p, k] > 0 and unchoked[p]:
                    requests.append(torch.tensor([k, p]))
        return requests

    def forward(self, peer_has, mine, peer_rate):
        # peer_has: (n_peers, n_pieces) 0/1 bitfields; mine: (n_pieces,) 0/1; peer_rate: (n_peers,) KiB/s
        n_peers, n_pieces = peer_has.shape
        unchoked = peer_rate > 0
        avail = (peer_has * unchoked.float()[:, None]).sum(dim=0)
        wanted = (mine == 0) & (avail > 0)
        skipped = torch.zeros((), dtype=torch.long)

        if wanted.any() and wanted.sum() <= self.endgame_pieces:
            requests = self.endgame_requests(peer_has, wanted, unchoked)
            return torch.stack(requests), skipped

        # rarest first, ties broken by piece index
        score = avail * n_pieces + torch.arange(n_pieces, dtype=torch.float32)
        score = torch.where(wanted, score, torch.full_like(score, float("inf")))
        slots = torch.where(unchoked, self.slots_per_peer, 0)
        fastest_first = torch.argsort(peer_rate, descending=True, stable=True)

        requests = []
        while wanted.any() and len(requests) < self.max_requests:
            k = int(torch.argmin(score))
            for j in range(n_peers):
                p = fastest_first[j]
                if slots[p] <= 0 or peer_has[p, k] == 0:
                    continue
                requests.append(torch.stack([torch.tensor(k), p]))
                slots[p] -= 1
                break
            else:
                # every peer holding this piece is busy: try it again next round
                skipped += 1
            wanted[k] = False
            score[k] = float("inf")

        if not requests:
            return torch.zeros(0, 2, dtype=torch.long), skipped
        return torch.stack(requests), skipped


def model():
    torch.manual_seed(5711)
    return PiecePicker().eval()


N_PEERS = torch.export.Dim("n_peers", min=2, max=32)
N_PIECES = torch.export.Dim("n_pieces", min=2, max=128)


def _swarm(n_peers, n_pieces, seed, have_frac=0.5, mine_frac=0.3, choked=()):
    g = torch.Generator().manual_seed(seed)
    has = (torch.rand(n_peers, n_pieces, generator=g) < have_frac).float()
    mine = (torch.rand(n_pieces, generator=g) < mine_frac).float()
    rate = 20.0 + 200.0 * torch.rand(n_peers, generator=g)
    for p in choked:
        rate[p] = 0.0
    return has, mine, rate


def example_inputs():
    # 8 peers (2 choking us), 64 pieces, about a third already done
    return _swarm(8, 64, 1, choked=(2, 5))


def dynamic_shapes():
    return ({0: N_PEERS, 1: N_PIECES}, {0: N_PIECES}, {0: N_PEERS})


def verify_inputs():
    has_e, mine_e, rate_e = _swarm(6, 40, 2, have_frac=0.6, choked=(1,))
    mine_e = torch.ones(40)
    mine_e[[3, 17, 29]] = 0.0           # three pieces left -> endgame
    has_done, _, rate_done = _swarm(2, 2, 3)
    # one fast peer holds everything, a slow one only piece 0 -> fast peer's slots run out
    has_busy = torch.tensor([[1.0, 1.0, 1.0, 1.0, 1.0, 1.0], [1.0, 0.0, 0.0, 0.0, 0.0, 0.0]])
    return [
        # rarest-first until the 6 unchoked peers' 12 slots are used; later pieces skipped (for/else)
        example_inputs(),
        # endgame: every unchoked peer that has one of the 3 missing pieces gets asked
        (has_e, mine_e, rate_e),
        # 2 peers, 2 pieces, already complete -> while never runs, empty request list
        (has_done, torch.ones(2), rate_done),
        # 32 peers, 128 pieces, nothing owned -> stops at max_requests
        _swarm(32, 128, 4, have_frac=0.3, mine_frac=0.0, choked=(0, 7, 19)),
        # rarest pieces 1, 2 go to the fast peer, which is then full; 3-5 skipped (for/else);
        # piece 0 (held by both) comes last and goes to the slow peer
        (has_busy, torch.zeros(6), torch.tensor([300.0, 40.0])),
    ]
