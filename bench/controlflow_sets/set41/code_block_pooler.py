"""Indentation-aware source-code encoder (code search / clone detection).

Each source line is a row of token ids (0 = padding) plus its indentation
level. Lines are embedded; an indentation stack turns the file into nested
blocks (a line opens a block, dedenting closes blocks). Every block is pooled
from the lines it contains plus a depth embedding, and an attention pool over
all blocks gives the file vector. Blank lines are skipped.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class CodeBlockPooler(nn.Module):
    def __init__(self, vocab=200, dim=32, max_depth=6):
        super().__init__()
        self.max_depth = max_depth
        self.emb = nn.Embedding(vocab, dim, padding_idx=0)
        self.line_proj = nn.Linear(dim, dim)
        self.depth_emb = nn.Embedding(max_depth + 1, dim)
        self.block_attn = nn.Linear(dim, 1)

    def encode_line(self, toks):
        mask = (toks != 0).unsqueeze(1).to(self.emb.weight.dtype)
        e = (self.emb(toks) * mask).sum(dim=0) / mask.sum().clamp(min=1.0)
        return torch.tanh(self.line_proj(e))

    def close_block(self, level, vecs):
        depth = self.depth_emb(level.clamp(max=self.max_depth))
        if len(vecs) == 1:
            return vecs[0] + depth  # a single statement, not a real block
        pooled = torch.stack(vecs).mean(dim=0) + depth
        if level > self.max_depth:
            pooled = pooled * 0.5  # pathologically deep nesting: damp it
        return pooled

    def forward(self, line_tokens, indent):
        stack = []   # [level, [line vectors]]
        blocks = []
        for i in range(line_tokens.shape[0]):
            toks = line_tokens[i]
            if not (toks != 0).any():
                continue  # blank line
            vec = self.encode_line(toks)
            level = indent[i]
            while stack and level <= stack[-1][0]:
                lvl, vecs = stack.pop()
                blocks.append(self.close_block(lvl, vecs))
            for entry in stack:
                entry[1].append(vec)
            stack.append([level, [vec]])
        while stack:
            lvl, vecs = stack.pop()
            blocks.append(self.close_block(lvl, vecs))

        if not blocks:
            dim = self.emb.weight.shape[1]
            return self.emb.weight.new_zeros(dim), self.emb.weight.new_zeros((0, dim))
        b = torch.stack(blocks)
        w = torch.softmax(self.block_attn(b).squeeze(1), dim=0)
        return (w.unsqueeze(1) * b).sum(dim=0), b


def model():
    torch.manual_seed(53)
    return CodeBlockPooler().eval()


def _file(indents, seed, blank=(), width=8):
    g = torch.Generator().manual_seed(seed)
    n = len(indents)
    toks = torch.randint(1, 200, (n, width), generator=g)
    lengths = torch.randint(2, width + 1, (n,), generator=g)
    toks = toks * (torch.arange(width).unsqueeze(0) < lengths.unsqueeze(1))
    for i in blank:
        toks[i] = 0
    return toks, torch.tensor(indents, dtype=torch.int64)


def example_inputs():
    # def / for / if / body / body / stmt / <blank> / def / body / stmt
    return _file([0, 1, 2, 3, 3, 1, 0, 0, 1, 0], seed=0, blank=(6,))


def dynamic_shapes():
    n = Dim("lines", min=2, max=128)
    return ({0: n}, {0: n})


def _walk(n, seed):
    g = torch.Generator().manual_seed(seed)
    lv, out = 0, []
    for step in torch.randint(-2, 2, (n,), generator=g).tolist():
        lv = max(0, min(9, lv + (1 if step >= 0 else step)))
        out.append(lv)
    return out


def verify_inputs():
    return [
        example_inputs(),                               # nested blocks, a blank line (continue), dedent by 3
        _file([0, 1, 1], seed=1, blank=(0, 1, 2)),      # only blank lines -> no blocks, early return
        _file([0, 0, 0, 0, 0], seed=2),                 # flat script: each line closes the previous (1 pop)
        _file([0, 1, 2, 3, 4, 5, 6, 7, 8, 0], seed=3),  # nesting deeper than max_depth, then a 9-level dedent
        _file([0, 1], seed=4),                          # minimum size
        _file(_walk(128, 5), seed=5, blank=(10, 50, 51)),  # long file with random indentation walk
    ]
