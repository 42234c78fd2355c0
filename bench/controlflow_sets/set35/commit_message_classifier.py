"""Conventional-commit type suggester for a git hosting UI: a small CNN text
classifier over commit-message token ids (feat / fix / docs / refactor).
Long messages keep head and tail, very short ones are padded; the model
abstains (and the UI shows no suggestion) when it is not confident.

Input: tokens [L] int64 (vocab 2000, 0 = pad).
Outputs: class probabilities [4], abstain flag [1].
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvBlock(nn.Module):
    def __init__(self, dim, kernel, residual=True):
        super().__init__()
        self.conv = nn.Conv1d(dim, dim, kernel, padding=kernel // 2)
        self.norm = nn.LayerNorm(dim)
        self.drop = nn.Dropout(0.1)
        self.residual = residual

    def forward(self, x):  # x [L, dim]
        y = self.conv(x.t().unsqueeze(0)).squeeze(0).t()
        y = self.drop(F.gelu(self.norm(y)))
        if self.residual:
            y = y + x
        return y


def fit_length(tokens, max_len, min_len, pad_id=0):
    if tokens.shape[0] > max_len:
        half = max_len // 2
        return torch.cat([tokens[:half], tokens[-half:]])
    elif tokens.shape[0] < min_len:
        return F.pad(tokens, (0, min_len - tokens.shape[0]), value=pad_id)
    return tokens


class CommitTypeClassifier(nn.Module):
    def __init__(self, vocab=2000, dim=32, kernels=(3, 5, 3), max_len=128, min_len=8, abstain_below=0.55):
        super().__init__()
        self.max_len = max_len
        self.min_len = min_len
        self.abstain_below = abstain_below
        self.emb = nn.Embedding(vocab, dim, padding_idx=0)
        self.blocks = nn.ModuleList([ConvBlock(dim, k, residual=(i > 0)) for i, k in enumerate(kernels)])
        self.head = nn.Linear(2 * dim, 4)

    def forward(self, tokens):
        tokens = fit_length(tokens, self.max_len, self.min_len)
        x = self.emb(tokens)
        for block in self.blocks:
            x = block(x)
        mask = (tokens != 0).float().unsqueeze(1)
        mean = (x * mask).sum(0) / mask.sum().clamp(min=1.0)
        pooled = torch.cat([mean, x.max(dim=0).values])
        probs = torch.softmax(self.head(pooled), dim=-1)
        if probs.max() < self.abstain_below:
            return probs, torch.ones(1)
        return probs, torch.zeros(1)


def model():
    torch.manual_seed(8)
    return CommitTypeClassifier().eval()


def _msg(n, seed, lo=1, hi=2000):
    g = torch.Generator().manual_seed(seed)
    return (torch.randint(lo, hi, (n,), generator=g),)


def example_inputs():
    return _msg(24, seed=24)


def dynamic_shapes():
    return ({0: torch.export.Dim("n_tokens", min=2, max=512)},)


def verify_inputs():
    return [
        example_inputs(),  # normal length; not confident -> abstain
        _msg(300, seed=18),  # longer than max_len -> head + tail; confident
        _msg(3, seed=5),  # shorter than min_len -> padded; abstain
        _msg(40, seed=17),  # normal length; confident
        _msg(8, seed=25),  # exactly min_len (no padding); confident
    ]
