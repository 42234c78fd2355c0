"""Object-centric scene parsing with iterative Slot Attention (robot tabletop).

Per-pixel features from a frozen backbone are grouped into K slots, K given
at run time as a tensor (e.g. from an object-count head).  Slots start from
learned embeddings and are refined by competitive attention and a GRU update
(a submodule with its own control flow: optional residual MLP, slot-norm
clipping) until they stop moving or the iteration budget runs out.  Slots that
explain too little of the image are dropped.
"""
import torch
import torch.nn as nn


class SlotUpdate(nn.Module):
    def __init__(self, dim, residual_mlp=True, max_norm=1.2):
        super().__init__()
        self.gru = nn.GRUCell(dim, dim)
        self.norm = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.ReLU(), nn.Linear(2 * dim, dim))
        self.residual_mlp = residual_mlp
        self.max_norm = max_norm
        with torch.no_grad():   # small init keeps the recurrent slot update contractive
            self.gru.weight_ih.mul_(0.3)
            self.gru.weight_hh.mul_(0.3)
            self.mlp[2].weight.mul_(0.3)

    def forward(self, updates, slots):
        new = self.gru(updates, slots)
        if self.residual_mlp:  # static-config
            new = new + self.mlp(self.norm(new))
        norms = new.norm(dim=-1, keepdim=True)
        if (norms > self.max_norm).any():
            new = new * (self.max_norm / norms).clamp(max=1.0)
        return new


class SlotAttentionParser(nn.Module):
    def __init__(self, dim=16, max_slots=8, max_iters=8, tol=0.06, min_mass_frac=0.3):
        super().__init__()
        self.max_slots = max_slots
        self.max_iters = max_iters
        self.tol = tol
        self.min_mass_frac = min_mass_frac
        self.scale = dim ** -0.5
        self.in_norm = nn.LayerNorm(dim)
        self.slot_norm = nn.LayerNorm(dim)
        self.to_q = nn.Linear(dim, dim, bias=False)
        self.to_k = nn.Linear(dim, dim, bias=False)
        self.to_v = nn.Linear(dim, dim, bias=False)
        self.slot_init = nn.Parameter(torch.randn(max_slots, dim))
        self.update = SlotUpdate(dim)
        nn.init.orthogonal_(self.to_q.weight, gain=3.0)
        nn.init.orthogonal_(self.to_k.weight, gain=3.0)

    def forward(self, feats, num_slots):
        k = min(max(int(num_slots.item()), 1), self.max_slots)
        x = self.in_norm(feats)
        keys, vals = self.to_k(x), self.to_v(x)
        slots = self.slot_init[:k]
        it = 0
        delta = torch.tensor(float("inf"))
        while it < self.max_iters and delta > self.tol:
            q = self.to_q(self.slot_norm(slots))
            attn = torch.softmax(keys @ q.T * self.scale, dim=1)
            weights = attn / attn.sum(0, keepdim=True)
            new_slots = self.update(weights.T @ vals, slots)
            delta = (new_slots - slots).abs().max()
            slots = new_slots
            it += 1
        mass = attn.mean(0)
        kept = []
        for j in range(k):
            if mass[j] < self.min_mass_frac / k:
                continue
            kept.append(slots[j])
        return torch.stack(kept), mass, torch.tensor(it)


def model():
    torch.manual_seed(1808)
    return SlotAttentionParser().eval()


def _scene(n_pixels, n_objects, seed, spread=0.3):
    g = torch.Generator().manual_seed(seed)
    centers = 2.0 * torch.randn(n_objects, 16, generator=g)
    assign = torch.arange(n_pixels) % n_objects
    return centers[assign] + spread * torch.randn(n_pixels, 16, generator=g)


def example_inputs():
    return _scene(64, 3, seed=1), torch.tensor(3)


def dynamic_shapes():
    return ({0: torch.export.Dim("pixels", min=4, max=256)}, None)


def verify_inputs():
    return [
        # example: 3 objects, 3 slots
        example_inputs(),
        # one slot on a 4-pixel scene
        (_scene(4, 1, seed=2), torch.tensor(1)),
        # more slots (6) than objects (2): some slots get little mass and are dropped
        (_scene(120, 2, seed=3), torch.tensor(6)),
        # requested count above the maximum -> clipped to 8 slots, many objects
        (_scene(256, 7, seed=4), torch.tensor(12)),
    ]
