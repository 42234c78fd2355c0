"""Block template builder for a UTXO blockchain node: a small network turns each mempool
transaction's fee, size and age into a priority score; transactions are then taken in
score order, pulling in unconfirmed ancestors first (child-pays-for-parent) as long as
the whole package fits in the block, skipping what does not fit and stopping when the
block is practically full.

Kind X. Constructs: 1 (if on tensor comparisons / .item() values), 2 (early return of a
package that does not fit; variables kept from before the if), 3 (and / not in the
ancestor walk), 4 (while walking the parent chain on tensor conditions), 5 (for over the
dynamic number of transactions, Python lists -> tensor), 6 (continue for transactions
that are already in / do not fit, break when the block is full), 7 (ancestor and package
helpers calling each other).
"""
import torch
import torch.nn as nn


class BlockAssembler(nn.Module):
    def __init__(self, max_weight=4000.0, min_tx_weight=60.0, max_ancestors=25):
        super().__init__()
        self.max_weight = max_weight
        self.min_tx_weight = min_tx_weight
        self.max_ancestors = max_ancestors
        self.scorer = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 1))

    def ancestors(self, i, parent, included):
        """Unconfirmed, not yet included ancestors of tx i, oldest first."""
        chain = []
        p = parent[i]
        while p >= 0 and not included[p] and len(chain) < self.max_ancestors:
            chain.append(int(p))
            p = parent[p]
        return chain[::-1]

    def package(self, i, parent, included, weight, used):
        pkg = self.ancestors(i, parent, included) + [i]
        if i in pkg[:-1]:
            return None                        # malformed cyclic parent chain
        need = weight[pkg].sum()
        if used + need > self.max_weight:
            return None
        return pkg, need

    def forward(self, fee, weight, parent):
        # fee: (T,) fees [sat]; weight: (T,) tx weight units; parent: (T,) int64 index of the
        # unconfirmed parent in the mempool or -1
        n = fee.shape[0]
        parent = torch.where(parent < n, parent, torch.full_like(parent, -1))
        age = torch.arange(n, 0, -1, dtype=torch.float32) / n
        feats = torch.stack([torch.log1p(fee / weight), torch.log(weight) / 8.0, age], 1)
        score = fee / weight * torch.exp(0.2 * torch.tanh(self.scorer(feats).squeeze(-1)))
        order = torch.argsort(score, descending=True)
        included = torch.zeros(n, dtype=torch.bool)
        used = torch.zeros(())
        total_fee = torch.zeros(())
        selected = []
        for j in range(n):
            i = int(order[j])
            if included[i]:
                continue                            # already pulled in as someone's parent
            if self.max_weight - used < self.min_tx_weight:
                break                               # block is full for all practical purposes
            res = self.package(i, parent, included, weight, used)
            if res is None:
                continue
            pkg, need = res
            for t in pkg:
                included[t] = True
                selected.append(t)
            used = used + need
            total_fee = total_fee + fee[pkg].sum()
        return torch.tensor(selected, dtype=torch.long), total_fee, used


def model():
    torch.manual_seed(3913)
    return BlockAssembler().eval()


def _make_mempool(seed, n, parents=None, big=()):
    g = torch.Generator().manual_seed(seed)
    weight = (150.0 + 700.0 * torch.rand(n, generator=g)).round()
    for i in big:
        weight[i] = 2500.0
    fee = (weight * (1.0 + 40.0 * torch.rand(n, generator=g))).round()
    parent = torch.full((n,), -1, dtype=torch.long)
    for child, par in (parents or {}).items():
        parent[child] = par
    return fee, weight, parent


def example_inputs():
    # 16 txs, some with parents (one chain of two ancestors): block fills, low-fee rest skipped
    return _make_mempool(1, 16, parents={3: 1, 7: 3, 9: 2, 12: 5})


def dynamic_shapes():
    t = torch.export.Dim("txs", min=2, max=128)
    return ({0: t}, {0: t}, {0: t})


def verify_inputs():
    ex = example_inputs()   # the example: path described in example_inputs()
    # two small txs: everything fits, loop ends without break
    tiny = _make_mempool(2, 2)
    # a low-fee parent with a high-fee child (CPFP): child's package includes the parent;
    # a giant tx that does not fit is skipped (continue) while smaller ones still fit
    (fee, w, par) = _make_mempool(3, 10, parents={6: 4}, big=(0, 1))
    fee[4], fee[6] = 200.0, 30000.0
    cpfp = (fee, w, par)
    # 60 equal-weight txs (110 wu): after 36 txs the remaining space (40 wu) is below
    # min_tx_weight -> break
    (fee, w, par) = _make_mempool(4, 60, parents={10: 2, 11: 10, 30: 11, 45: 44})
    w[:] = 110.0
    crowded = (fee, w, par)
    # cyclic / bogus parent references (mempool corruption): package rejected, and a parent
    # index out of range treated as "no parent"
    (fee, w, par) = _make_mempool(5, 6, parents={1: 2, 2: 1, 4: 99})
    cyclic = (fee, w, par)
    return [ex, tiny, cpfp, crowded, cyclic]
