"""Apple orchard crop-load management: per-tree thinning plan after bloom.

Blossom-cluster counts from the bloom scan and a fruit-set model (canopy vigour
features) give the expected fruitlets per tree; the target crop load is a fixed
number of fruit per cm^2 of trunk cross-sectional area. Lightly cropped trees
are left alone, heavily overcropped ones get a chemical thinner, the rest are
hand-thinned. On big blocks the airblast sprayer treats whole rows, so when the
block as a whole is overcropped every overloaded tree gets the chemical.
"""
import torch
import torch.nn as nn

LEAVE, HAND_THIN, CHEMICAL = 0, 1, 2


class FruitSetModel(nn.Module):
    def __init__(self, n_feats=5, hidden=(16, 16)):
        super().__init__()
        sizes = (n_feats,) + hidden
        self.hidden = nn.ModuleList(nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:]))
        self.out = nn.Linear(sizes[-1], 1)

    def forward(self, feats):
        h = feats
        for layer in self.hidden:
            h = torch.relu(layer(h))
        return 0.2 + 0.3 * torch.sigmoid(self.out(h)).squeeze(-1)  # fraction of flowers that set fruit


class ThinningPlanner(nn.Module):
    def __init__(self, fruit_per_cm2=6.0, flowers_per_cluster=5.0, heavy_ratio=1.5, block_size=100, chem_efficacy=0.6):
        super().__init__()
        self.fruit_set = FruitSetModel()
        self.fruit_per_cm2 = fruit_per_cm2
        self.flowers_per_cluster = flowers_per_cluster
        self.heavy_ratio = heavy_ratio
        self.block_size = block_size
        self.chem_efficacy = chem_efficacy

    def forward(self, blossom_clusters, tcsa_cm2, canopy_feats):
        fruitlets = blossom_clusters * self.flowers_per_cluster * self.fruit_set(canopy_feats)
        target = self.fruit_per_cm2 * tcsa_cm2
        ratio = fruitlets / target

        block_spray = blossom_clusters.shape[0] > self.block_size and ratio.mean() > self.heavy_ratio

        actions, removals = [], []
        for i in range(blossom_clusters.shape[0]):
            if ratio[i] <= 1.0:
                actions.append(torch.tensor(LEAVE))
                removals.append(torch.zeros(()))
                continue
            excess = fruitlets[i] - target[i]
            if block_spray or ratio[i] > self.heavy_ratio:
                actions.append(torch.tensor(CHEMICAL))
                removals.append(self.chem_efficacy * excess)
            else:
                actions.append(torch.tensor(HAND_THIN))
                removals.append(excess)

        biennial_risk = (ratio < 0.7).float().mean()  # light crop now -> heavy bloom next year
        return torch.stack(actions), torch.stack(removals), torch.tensor(int(bool(block_spray))), biennial_risk


def model():
    torch.manual_seed(8)
    return ThinningPlanner().eval()


def _block(n, load, seed):
    """`load` scales bloom density relative to what the trees can carry."""
    g = torch.Generator().manual_seed(seed)
    tcsa = 10.0 + 15.0 * torch.rand(n, generator=g)
    feats = torch.randn(n, 5, generator=g)
    jitter = torch.linspace(0.3, 1.7, n)[torch.randperm(n, generator=g)]
    clusters = load * jitter * tcsa * 6.0 / (5.0 * 0.35)
    return clusters, tcsa, feats


def example_inputs():
    return _block(40, 1.0, 1)


def dynamic_shapes():
    n = torch.export.Dim("trees", min=2, max=256)
    return ({0: n}, {0: n}, {0: n})


def verify_inputs():
    return [
        example_inputs(),      # mixed block: leave (continue), hand-thin and chemical trees
        _block(256, 2.0, 2),   # max block, heavily overcropped -> block spray, every loaded tree chemical
        _block(150, 0.9, 3),   # big block but mean ratio under 1.5 -> per-tree decisions
        _block(2, 1.2, 4),     # min block: two trees
        _block(30, 0.4, 5),    # light bloom: every tree left alone (high biennial risk)
    ]
