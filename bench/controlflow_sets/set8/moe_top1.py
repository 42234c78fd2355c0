"""Switch-Transformer style block: attention + a top-1 routed mixture of experts that skips unused experts."""

import torch
from torch import nn

D, N_EXPERTS, HEADS = 32, 4, 4


class SelfAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(D, 3 * D)
        self.out = nn.Linear(D, D)

    def forward(self, x):
        b, s, _ = x.shape
        q, k, v = self.qkv(x).reshape(b, s, 3, HEADS, D // HEADS).permute(2, 0, 3, 1, 4)
        att = torch.softmax(q @ k.transpose(-1, -2) / (D // HEADS) ** 0.5, dim=-1)
        return self.out((att @ v).transpose(1, 2).reshape(b, s, D))


class Expert(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(D, 64)
        self.fc2 = nn.Linear(64, D)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


class SwitchFFN(nn.Module):
    def __init__(self):
        super().__init__()
        self.router = nn.Linear(D, N_EXPERTS, bias=False)
        self.experts = nn.ModuleList(Expert() for _ in range(N_EXPERTS))

    def forward(self, x):
        probs = self.router(x).softmax(-1)
        gate, idx = probs.max(-1)
        out = torch.zeros_like(x)
        for i, expert in enumerate(self.experts):
            mask = (idx == i).unsqueeze(-1)
            if not mask.any():
                continue
            out = torch.where(mask, expert(x), out)
        return out * gate.unsqueeze(-1)


class SwitchBlock(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1 = nn.LayerNorm(D)
        self.ln2 = nn.LayerNorm(D)
        self.attn = SelfAttention()
        self.moe = SwitchFFN()

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.moe(self.ln2(x))


def model():
    torch.manual_seed(0)
    net = SwitchBlock()
    with torch.no_grad():
        nn.init.normal_(net.moe.router.weight, std=0.5)
    return net.eval()


def example_inputs():
    torch.manual_seed(1)
    return (torch.randn(2, 10, D),)


def dynamic_shapes():
    return ({1: torch.export.Dim("seq", min=1, max=128)},)


def _tokens(seed, length=None):
    g = torch.Generator().manual_seed(seed)
    n = int(torch.randint(1, 6, (1,), generator=g))
    return (torch.randn(2, n if length is None else length, D, generator=g),)


def verify_inputs():
    # seed 8: every expert used; 19: only expert 2 used (others skipped); 12: expert 2 unused; 3: experts 0, 3.
    return [_tokens(8), _tokens(19), _tokens(12), _tokens(3), _tokens(100, 128)]
