"""SSD flash translation layer: garbage-collection victim selection with wear leveling.

Given per-block erase counts and valid-page counts, the FTL must reclaim `blocks_needed` free
blocks.  Each round it picks the cheapest victim (few valid pages to migrate, low wear), skips
worn-out blocks, stops early when the best remaining victim is too expensive, and accounts for
write amplification.  If the erase-count spread is too large it also schedules a static
wear-leveling swap of the coldest block.
"""
import torch
import torch.nn as nn
from torch.export import Dim

PAGES_PER_BLOCK = 64.0


class GCVictimSelector(nn.Module):
    def __init__(self, alpha=1.0, beta=0.01, max_cost=40.0, wear_limit=3000.0, spread_limit=400.0):
        super().__init__()
        self.alpha = alpha
        self.beta = beta
        self.max_cost = max_cost
        self.wear_limit = wear_limit
        self.spread_limit = spread_limit

    def forward(self, erase_counts, valid_pages, blocks_needed):
        cost = self.alpha * valid_pages.float() + self.beta * erase_counts.float()
        used = torch.zeros_like(erase_counts, dtype=torch.bool)
        victims = []
        migrated = torch.zeros((), dtype=torch.long)
        for _ in range(int(blocks_needed.item())):
            masked = cost.masked_fill(used, float("inf"))
            idx = torch.argmin(masked)
            if masked[idx] > self.max_cost:
                break  # nothing cheap left: defer GC
            used[idx] = True
            if erase_counts[idx] > self.wear_limit and not valid_pages[idx] > 0:
                continue  # worn-out empty block: retire it instead of reusing
            if valid_pages[idx] > 0:
                migrated = migrated + valid_pages[idx]
            victims.append(idx)
        if len(victims) > 0:
            chosen = torch.stack(victims)
        else:
            chosen = torch.zeros(0, dtype=torch.long)
        write_amp = (migrated + PAGES_PER_BLOCK * len(victims)) / (PAGES_PER_BLOCK * max(len(victims), 1))

        spread = erase_counts.amax() - erase_counts.amin()
        if spread > self.spread_limit:
            cold = torch.argmin(erase_counts.float().masked_fill(used, float("inf")))
            chosen = torch.cat([chosen, cold.view(1)])
        return chosen, write_amp


def model():
    return GCVictimSelector().eval()


def _blocks(n, seed, worn=()):
    g = torch.Generator().manual_seed(seed)
    erase = torch.randperm(n, generator=g) * 7 + 500
    valid = (torch.randperm(n, generator=g) * 3) % 61
    for i in worn:  # retired-candidate blocks: worn out and empty
        erase[i] = 3200 + i
        valid[i] = 0
    return erase, valid


def example_inputs():
    e, v = _blocks(32, 0)
    return (e, v, torch.tensor(4))


def dynamic_shapes():
    blocks = Dim("blocks", min=4, max=1024)
    return ({0: blocks}, {0: blocks}, None)


def verify_inputs():
    e1, v1 = _blocks(16, 1, worn=(3,))
    e2, v2 = _blocks(64, 2)
    e2[10] = 2000   # hot block -> spread > limit -> wear-leveling swap
    e3, v3 = _blocks(8, 3)
    v3 += 50        # every block nearly full: first victim already too expensive
    return [
        example_inputs(),               # 4 rounds, all victims cheap, no wear-leveling
        (e1, v1, torch.tensor(11)),     # worn-out empty block picked -> continue; spread > limit -> swap
        (e2, v2, torch.tensor(50)),     # many rounds until cost > max -> break after 36 victims; swap
        (e3, v3, torch.tensor(2)),      # break on first round -> no victims (empty result)
        (e2, v2, torch.tensor(0)),      # zero blocks requested: loop runs 0 times
    ]
