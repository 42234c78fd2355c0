"""Container terminal yard crane: plan the moves to hand over the containers of
one bay in retrieval order (1, 2, 3, ...). Containers stacked on top of the next
one to leave are relocated first, preferably onto a stack whose containers all
leave later (no re-handling), otherwise onto the lowest stack. A learned model
turns the move list into an estimated crane time.

Kind X; constructs 1, 2, 3, 4, 5, 6, 7."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim

NO_STACK = -1


class YardCraneSequencer(nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(416)
        self.move_time = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))
        self.max_moves = 24           # per planning horizon

    def heights(self, stacks):
        return (stacks > 0).sum(dim=1)

    def choose_dest(self, stacks, src, blocker):
        heights = self.heights(stacks)
        earliest = stacks.masked_fill(stacks == 0, 10 ** 6).min(dim=1).values
        best, best_h, best_clean = NO_STACK, stacks.shape[1] + 1, False
        for s in range(stacks.shape[0]):
            if s == src or heights[s] >= stacks.shape[1]:
                continue
            clean = bool(earliest[s] > blocker)
            if (clean and not best_clean) or (clean == best_clean and heights[s] < best_h):
                best, best_h, best_clean = s, heights[s], clean
        return best

    def summarize(self, moves):
        if len(moves) == 0:
            return torch.zeros(0, 5, dtype=torch.int64), torch.zeros(())
        m = torch.stack(moves)
        gantry = (m[:, 3] - m[:, 1]).abs()
        feats = torch.stack([gantry, m[:, 2], m[:, 4]], dim=1).float()
        return m, F.softplus(self.move_time(feats)).sum()

    def forward(self, stacks):
        # stacks: [S, H] int64 retrieval numbers per stack, tier 0 at the bottom, 0 = empty slot
        stacks = stacks.clone()
        moves = []               # (container, from stack, from tier, to stack, to tier); to stack -1 = truck
        n_boxes = int((stacks > 0).sum())
        for target in range(1, n_boxes + 1):
            pos = (stacks == target).nonzero()[0]
            s, tier = pos[0], pos[1]
            top = self.heights(stacks)[s] - 1
            while top > tier:
                blocker = stacks[s, top].clone()
                dest = self.choose_dest(stacks, s, blocker)
                if dest == NO_STACK:
                    return self.summarize(moves)       # bay is full: stop planning here
                dtier = self.heights(stacks)[dest]
                stacks[dest, dtier] = blocker
                stacks[s, top] = 0
                moves.append(torch.stack([blocker, s, top, torch.tensor(dest), dtier]))
                top = top - 1
            stacks[s, tier] = 0
            moves.append(torch.stack([stacks.new_tensor(target), s, tier, stacks.new_tensor(NO_STACK), tier]))
            if len(moves) >= self.max_moves:
                break
        return self.summarize(moves)


def model():
    return YardCraneSequencer().eval()


def _bay(cols):
    """cols: list of stacks, bottom first, padded to 4 tiers."""
    return torch.tensor([c + [0] * (4 - len(c)) for c in cols], dtype=torch.int64)


def _random_bay(S, seed, fill=0.7):
    g = torch.Generator().manual_seed(seed)
    h = (torch.rand(S, generator=g) * 4 * fill + 1).long().clamp(max=4)
    n = int(h.sum())
    ids = (torch.randperm(n, generator=g) + 1).tolist()
    cols, k = [], 0
    for s in range(S):
        cols.append(ids[k:k + int(h[s])])
        k += int(h[s])
    return _bay(cols)


def example_inputs():
    return (_bay([[3, 1, 5], [2], [4, 6]]),)


def dynamic_shapes():
    return ({0: Dim("stacks", min=2, max=10)},)


def verify_inputs():
    return [
        example_inputs(),                           # 1 under 5: 5 relocated (no clean stack), later relocated again
        (_bay([[1, 2, 3, 4], [5, 6, 7, 8]]),),      # min stacks, both full: 1 is buried, nowhere to relocate -> early return, no moves
        (_bay([[1, 3], [2]]),),                     # min stacks: 1 under 3, only a dirty stack to relocate onto
        (_bay([[], [], []]),),                      # empty bay: nothing to plan (loop runs 0 times)
        (_bay([[4, 3, 2, 1], [], [5]]),),           # reverse order: every container comes straight off the top
        (_bay([[1, 9, 8, 7], [2, 6], [3], [4, 5]]),),   # three blockers over 1, choice between clean / lowest stacks
        (_random_bay(10, 3, fill=1.0),),            # max stacks, random bay: hits the move budget (break)
    ]
