"""Sparse mixture-of-experts feed-forward block: top-2 token routing, experts
with no routed tokens are skipped, and experts over capacity keep only the
tokens with the largest gate weight (the rest are dropped and counted)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Expert(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.up = nn.Linear(dim, hidden)
        self.down = nn.Linear(hidden, dim)

    def forward(self, x):
        return self.down(F.gelu(self.up(x)))


class MoETokenRouter(nn.Module):
    def __init__(self, dim=16, n_experts=6, top_k=2, capacity_num=1, capacity_den=1,
                 gate_scale=6.0):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.gate = nn.Linear(dim, n_experts, bias=False)
        with torch.no_grad():
            self.gate.weight.mul_(gate_scale)
        self.experts = nn.ModuleList(Expert(dim, 2 * dim) for _ in range(n_experts))
        self.top_k = top_k
        self.capacity_num, self.capacity_den = capacity_num, capacity_den
        self.jitter = 0.01

    def forward(self, x):
        b, t, d = x.shape
        flat = self.norm(x).reshape(-1, d)
        gate_logits = self.gate(flat)
        if self.training:  # static: exploration noise only while training
            gate_logits = gate_logits + self.jitter * torch.randn_like(gate_logits)
        top_val, top_idx = gate_logits.topk(self.top_k, dim=-1)
        weights = top_val.softmax(-1)
        n_tok = flat.shape[0]
        capacity = (n_tok * self.top_k * self.capacity_num) // (len(self.experts) * self.capacity_den)
        out = torch.zeros_like(flat)
        dropped = torch.zeros((), dtype=torch.long)
        for e, expert in enumerate(self.experts):  # static
            routed = top_idx == e
            if not routed.any():
                continue
            w = (weights * routed).sum(-1)
            count = routed.any(-1).sum()
            if count > capacity:
                keep = w.topk(capacity).indices
                w = torch.zeros_like(w).scatter(0, keep, w[keep])
                dropped = dropped + (count - capacity)
            out = out + w.unsqueeze(-1) * expert(flat)
        return x + out.reshape(b, t, d), dropped


def model():
    torch.manual_seed(0)
    return MoETokenRouter().eval()


def _tokens(t, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(2, t, 16, generator=g),)


def example_inputs():
    return _tokens(5, 0)


def dynamic_shapes():
    return ({1: torch.export.Dim("seq", min=2, max=128)},)


def verify_inputs():
    return [_tokens(2, 1), _tokens(9, 2), _tokens(3, 3)]
