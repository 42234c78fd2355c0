"""Compiler middle-end analysis on a control-flow graph given as edge logits
(edge b->s present when logits[b, s] > 1): reachability worklist, iterative dominator
dataflow to a fixed point, immediate dominators, dominator-tree depth (recursive,
memoised), natural-loop headers from back edges, and a learned block-frequency model.
"""
import torch
import torch.nn as nn


def reachable(succ):
    n = succ.shape[0]
    seen = torch.zeros(n, dtype=torch.bool)
    seen[0] = True
    work = [0]
    while work:
        b = work.pop()
        for s in range(n):
            if succ[b, s] and not seen[s]:
                seen[s] = True
                work.append(s)
    return seen


def dominators(succ, seen):
    n = succ.shape[0]
    dom = seen.unsqueeze(0).repeat(n, 1)  # dom[b, d]: d dominates b
    dom[0] = False
    dom[0, 0] = True
    changed = torch.tensor(True)
    while changed:
        changed = torch.tensor(False)
        for b in range(1, n):
            if not seen[b]:
                continue
            preds = succ[:, b] & seen
            new = dom[preds].all(dim=0)
            new[b] = True
            if (new != dom[b]).any():
                dom[b] = new
                changed = torch.tensor(True)
    return dom


def tree_depth(idom, b, memo):
    if b == 0:
        return 0
    if memo[b] >= 0:
        return memo[b]
    d = tree_depth(idom, int(idom[b]), memo) + 1
    memo[b] = d
    return d


class DominatorAnalysis(nn.Module):
    def __init__(self, edge_threshold=1.0):
        super().__init__()
        self.edge_threshold = edge_threshold
        self.freq = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1), nn.Softplus())

    def forward(self, logits):
        n = logits.shape[0]
        succ = logits > self.edge_threshold
        idom = torch.full((n,), -1, dtype=torch.long)
        if not succ[0].any():
            # entry block falls straight into the exit: nothing to analyse
            return idom, torch.zeros(n, dtype=torch.long), torch.zeros(n), torch.zeros(n)
        seen = reachable(succ)
        dom = dominators(succ, seen)
        n_doms = dom.sum(dim=1)
        for b in range(1, n):
            if seen[b]:
                strict = dom[b].clone()
                strict[b] = False
                # strict dominators form a chain; the closest one has the most dominators
                idom[b] = torch.argmax(torch.where(strict, n_doms, -1))
        memo = [-1] * n
        depth, header = [], []
        for b in range(n):
            depth.append(torch.tensor(tree_depth(idom, b, memo) if seen[b] else -1))
            back = succ[:, b] & dom[:, b] & seen  # edges p->b where b dominates p
            header.append(back.any().float())
        depth, header = torch.stack(depth), torch.stack(header)
        feats = torch.stack([succ[:, :].sum(0).float(), succ.sum(1).float(), header,
                             depth.clamp(min=0).float()], dim=1)
        freq = self.freq(feats / 4.0).squeeze(1) * seen.float() * (1.0 + 3.0 * header)
        return idom, depth, header, freq


def model():
    torch.manual_seed(5811)
    return DominatorAnalysis().eval()


def _cfg(edges, n, seed):
    g = torch.Generator().manual_seed(seed)
    logits = torch.rand(n, n, generator=g) - 0.5  # no edge
    for b, s in edges:
        logits[b, s] = 1.5 + torch.rand((), generator=g)
    return logits


def example_inputs():
    # if/else diamond followed by a while loop and an unreachable cleanup block
    edges = [(0, 1), (0, 2), (1, 3), (2, 3), (3, 4), (4, 5), (5, 4), (4, 6)]
    return (_cfg(edges, 8, 1),)


def dynamic_shapes():
    blocks = torch.export.Dim("blocks", min=3, max=24)
    return ({0: blocks, 1: blocks},)


def verify_inputs():
    g = torch.Generator().manual_seed(11)
    chain = [(b, b + 1) for b in range(23)]
    extra = [(int(a), int(b)) for a, b in torch.randint(0, 24, (20, 2), generator=g)]
    return [
        # diamond + loop: idom of the join is the branch, loop header at block 4, block 7 dead
        example_inputs(),
        # 24 blocks: chain plus random gotos (irreducible bits, self loops): several rounds
        (_cfg(chain + extra, 24, 2),),
        # 3 blocks, entry has no successor: early return
        (_cfg([(1, 2), (2, 1)], 3, 3),),
        # 3 blocks straight line with a self loop on block 2
        (_cfg([(0, 1), (1, 2), (2, 2)], 3, 4),),
    ]
