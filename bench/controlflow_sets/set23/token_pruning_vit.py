"""Vision transformer with dynamic token pruning: long patch sequences are
first merged pairwise, each block keeps the highest-norm tokens (in original
order), and classification uses the mean of the surviving tokens."""
import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x):
        h = self.norm1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.mlp(self.norm2(x))


class TokenPruningViT(nn.Module):
    def __init__(self, patch_dim=12, dim=16, depth=3, heads=2, keep_num=3, keep_den=4,
                 min_tokens=3, num_classes=5, merge_above=16):
        super().__init__()
        self.embed = nn.Linear(patch_dim, dim)
        self.blocks = nn.ModuleList(Block(dim, heads) for _ in range(depth))
        self.head = nn.Linear(dim, num_classes)
        self.keep_num, self.keep_den = keep_num, keep_den
        self.min_tokens = min_tokens
        self.merge_above = merge_above

    def prune(self, x):
        n = x.shape[1]
        keep = max(self.min_tokens, (n * self.keep_num) // self.keep_den)
        if keep >= n:
            return x
        norms = x.norm(dim=-1)
        idx = norms.topk(keep, dim=1, sorted=False).indices.sort(dim=1).values
        return x.gather(1, idx.unsqueeze(-1).expand(-1, -1, x.shape[-1]))

    def forward(self, patches):
        x = self.embed(patches)
        if x.shape[1] > self.merge_above:
            n = x.shape[1] - x.shape[1] % 2
            x = 0.5 * (x[:, 0:n:2] + x[:, 1:n:2])
        for blk in self.blocks:  # static
            x = self.prune(blk(x))
        return self.head(x.mean(dim=1)), torch.tensor(x.shape[1])


def model():
    torch.manual_seed(0)
    return TokenPruningViT().eval()


def _patches(b, n, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(b, n, 12, generator=g),)


def example_inputs():
    return _patches(2, 10, 0)


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=2, max=16),
             1: torch.export.Dim("patches", min=2, max=256)},)


def verify_inputs():
    return [_patches(3, 3, 1), _patches(2, 37, 9), _patches(4, 16, 3)]
