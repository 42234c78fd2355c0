"""Heavy-flavour jet tagger for a particle-physics trigger (kind T).

Input: the charged tracks of one jet, (N, 6) = (pt, eta, phi, d0, z0, d0_significance).
Tracks are embedded by a Deep-Sets style per-track MLP (ModuleList), pooled (attention
pooling for high-multiplicity jets, plain sum for small ones), and classified as
b / c / light.  The heavy-flavour head is only run when at least two displaced tracks
exist and the jet is energetic enough; otherwise a cheap light-jet head is used.

constructs: 1 (if/elif/else on tensor predicates), 3 (and / or / not),
            8 (branch on number of tracks N), 9 (loop over nn.ModuleList)
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class JetFlavourTagger(nn.Module):
    def __init__(self, n_feat=6, hidden=32, n_layers=3, sig_cut=3.0, min_jet_pt=20.0,
                 attention_above=16):
        super().__init__()
        dims = [n_feat] + [hidden] * n_layers
        self.track_layers = nn.ModuleList(nn.Linear(a, b) for a, b in zip(dims[:-1], dims[1:]))
        self.att = nn.Linear(hidden, 1)
        self.heavy_head = nn.Sequential(nn.Linear(hidden + 1, hidden), nn.ReLU(), nn.Linear(hidden, 3))
        self.light_head = nn.Linear(hidden, 3)
        self.sig_cut = sig_cut
        self.min_jet_pt = min_jet_pt
        self.attention_above = attention_above

    def forward(self, tracks):
        pt, sig = tracks[:, 0], tracks[:, 5]
        x = torch.cat([torch.log1p(tracks[:, :1]), tracks[:, 1:]], dim=1)
        for layer in self.track_layers:
            x = F.relu(layer(x))

        if tracks.shape[0] > self.attention_above:
            w = torch.softmax(self.att(x).squeeze(1), dim=0)
            jet = (w.unsqueeze(1) * x).sum(dim=0)
        else:
            jet = x.sum(dim=0)

        n_displaced = (sig.abs() > self.sig_cut).sum()
        if n_displaced >= 2 and not pt.sum() < self.min_jet_pt:
            logits = self.heavy_head(torch.cat([jet, n_displaced.float().unsqueeze(0)]))
        elif n_displaced == 1 or sig.abs().max() > 2 * self.sig_cut:
            # a single displaced track: charm-like, mix both heads
            logits = 0.5 * (self.heavy_head(torch.cat([jet, torch.ones(1)])) + self.light_head(jet))
        else:
            logits = self.light_head(jet)
        return F.softmax(logits, dim=0)


def model():
    torch.manual_seed(304)
    return JetFlavourTagger().eval()


def _jet(n, seed, pt_scale=5.0, displaced=()):
    g = torch.Generator().manual_seed(seed)
    t = torch.empty(n, 6)
    t[:, 0] = pt_scale * (0.5 + torch.rand(n, generator=g))          # pt
    t[:, 1] = 0.3 * torch.randn(n, generator=g)                      # eta
    t[:, 2] = 0.3 * torch.randn(n, generator=g)                      # phi
    t[:, 3] = 0.01 * torch.randn(n, generator=g)                     # d0
    t[:, 4] = 0.02 * torch.randn(n, generator=g)                     # z0
    t[:, 5] = 2.0 * (torch.rand(n, generator=g) - 0.5)               # |d0 sig| < 1
    for i, s in displaced:
        t[i, 5] = s
    return (t,)


def example_inputs():
    return _jet(8, 0, displaced=[(1, 5.0), (4, -4.2)])


def dynamic_shapes():
    return ({0: torch.export.Dim("tracks", min=2, max=64)},)


def verify_inputs():
    return [
        example_inputs(),                                      # N=8 sum pool; 2 displaced, pt ok -> heavy head
        _jet(24, 1, displaced=[(0, 4.0), (7, 6.5), (9, -3.8)]),  # N=24 attention pool; heavy head
        _jet(3, 2, pt_scale=2.0, displaced=[(0, 4.0), (1, 5.0)]),  # 2 displaced but soft jet: 'not' arm fails; elif fails both arms (max sig 5 < 6) -> light head
        _jet(5, 3, displaced=[(2, 4.5)]),                      # exactly one displaced -> elif (first arm)
        _jet(4, 4, pt_scale=2.0, displaced=[(0, 7.0), (3, 5.0)]),  # soft jet, 2 displaced, max sig 7 > 6 -> elif (second arm)
        _jet(20, 5),                                           # N=20 attention, nothing displaced -> light head
    ]
