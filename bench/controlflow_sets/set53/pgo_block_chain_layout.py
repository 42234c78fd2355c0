"""Profile-guided basic-block layout (Pettis-Hansen bottom-up chaining).

Input: the profiled edge counts between the basic blocks of one function
(block 0 is the entry).  Edges are visited from hottest to coldest and chains
are glued when the edge can become a fall-through (source ends its chain,
target starts its chain, target is not the entry).  Chains are ordered entry
first, then by a learned hotness estimate, and trailing cold chains are
split off into the cold section.
Returns (block layout, number of hot blocks, fall-through ratio).
"""
import torch
import torch.nn as nn


class BlockHotness(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, counts):
        inflow = counts.sum(dim=0)
        outflow = counts.sum(dim=1)
        loop = torch.diagonal(counts)
        feats = torch.log1p(torch.stack([inflow, outflow, loop], dim=1))
        # executed-count estimate with a learned correction of at most +-20 %
        return (inflow + outflow) * (1.0 + 0.2 * torch.tanh(self.mlp(feats).squeeze(-1)))


class BlockChainLayout(nn.Module):
    def __init__(self):
        super().__init__()
        self.hotness = BlockHotness()
        self.min_count = 1.0
        self.cold_threshold = 20.0

    def _find_chain(self, chains, block):
        for ci, chain in enumerate(chains):
            if (chain == block).any():
                return ci

    def _merge(self, chains, ci, cj):
        merged = torch.cat([chains[ci], chains[cj]])
        rest = [c for k, c in enumerate(chains) if k != ci and k != cj]
        return [merged] + rest

    def _chain_heat(self, chain, block_heat):
        return block_heat[chain].sum()

    def _order_chains(self, chains, block_heat):
        entry = self._find_chain(chains, 0)
        rest = [c for k, c in enumerate(chains) if k != entry]
        rest = sorted(rest, key=lambda c: (-self._chain_heat(c, block_heat).item(), int(c[0])))
        return [chains[entry]] + rest

    def forward(self, edge_counts):
        b = edge_counts.shape[0]
        chains = [torch.tensor([i]) for i in range(b)]
        flat = edge_counts.flatten()
        order = torch.argsort(flat, descending=True)
        for idx in order.tolist():
            if flat[idx] <= self.min_count:
                break                       # everything left is cold
            src, dst = divmod(idx, b)
            if src == dst:
                continue                    # a self loop never falls through
            ci = self._find_chain(chains, src)
            cj = self._find_chain(chains, dst)
            if ci == cj:
                continue                    # would close a cycle
            if chains[ci][-1] == src and chains[cj][0] == dst and dst != 0:
                chains = self._merge(chains, ci, cj)

        block_heat = self.hotness(edge_counts)
        hot = self._order_chains(chains, block_heat)
        cold = []
        while len(hot) > 1 and self._chain_heat(hot[-1], block_heat) < self.cold_threshold:
            cold.insert(0, hot.pop())

        layout = torch.cat(hot + cold)
        n_hot = torch.tensor(sum(c.shape[0] for c in hot))
        fall = edge_counts[layout[:-1], layout[1:]].sum()
        ratio = fall / torch.clamp(edge_counts.sum() - torch.diagonal(edge_counts).sum(), min=1.0)
        return layout, n_hot, ratio


def model():
    torch.manual_seed(5314)
    return BlockChainLayout().eval()


def example_inputs():
    return verify_inputs()[0]


def dynamic_shapes():
    blocks = torch.export.Dim("blocks", min=2, max=48)
    return ({0: blocks, 1: blocks},)


def verify_inputs():
    def cfg(n, seed, cold_tail=0):
        # structured CFG: fall-through successor, a forward branch, some loops
        g = torch.Generator().manual_seed(seed)
        c = torch.zeros(n, n)
        for i in range(n - 1):
            c[i, i + 1] = 50.0 + 1000.0 * torch.rand((), generator=g)
            j = int(torch.randint(i + 1, n, (), generator=g))
            if j != i + 1:
                c[i, j] = 5.0 + 500.0 * torch.rand((), generator=g)
            if i % 5 == 4:
                c[i, i - 3] = 100.0 + 800.0 * torch.rand((), generator=g)   # back edge
            if i % 7 == 3:
                c[i, i] = 30.0 + 60.0 * torch.rand((), generator=g)         # self loop
        for i in range(n - cold_tail, n):
            c[:, i] *= 0.001              # error-handling blocks: barely executed
            c[i, :] *= 0.001
        return c

    return [
        # example: 12 blocks; self loops and back edges (continue paths),
        # edges whose source is no longer a chain tail; 2 cold error blocks
        # split off into the cold section (while true)
        (cfg(12, seed=1, cold_tail=2),),
        # 2 blocks (min), dense: every edge > 1, the loop runs out without
        # break; everything ends in one chain (len(hot) > 1 false)
        (torch.tensor([[5.0, 300.0], [40.0, 7.0]]),),
        # 48 blocks (max): also edges whose target is no longer a chain head;
        # no cold tail -> the coldest chain is still warm (second while
        # operand false)
        (cfg(48, seed=2),),
        # 3 blocks, a function-level loop whose back edge into the entry is the
        # hottest edge: never glued (dst != 0 false); the rest chains normally
        (torch.tensor([[0.0, 100.0, 0.0], [0.0, 0.0, 50.0], [500.0, 0.0, 0.0]]),),
    ]
