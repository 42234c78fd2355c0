"""Per-protein embedding from an amino-acid sequence with a fixed-context encoder.

Sequences shorter than the encoder's minimum context are padded, longer ones are cut
into overlapping windows whose embeddings are averaged, and sequences that are mostly
unknown residues ('X') are rejected with a zero embedding and a low-confidence flag.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_AA = 20
UNK = 20
PAD = 21


class ResidueEncoder(nn.Module):
    def __init__(self, dim=32, n_layers=3, pad_id=PAD):
        super().__init__()
        self.pad_id = pad_id
        self.embed = nn.Embedding(22, dim, padding_idx=pad_id)
        self.convs = nn.ModuleList([nn.Conv1d(dim, dim, 5, padding=2) for _ in range(n_layers)])
        self.norm = nn.LayerNorm(dim)

    def forward(self, tokens):
        mask = (tokens != self.pad_id).float()
        h = self.embed(tokens).t().unsqueeze(0)          # (1, dim, L)
        for conv in self.convs:
            h = h + F.gelu(conv(h))
        h = self.norm(h.squeeze(0).t())                  # (L, dim)
        return (h * mask[:, None]).sum(0) / mask.sum()


class ProteinWindowEmbedder(nn.Module):
    def __init__(self, min_len=8, max_len=48, stride=24):
        super().__init__()
        self.encoder = ResidueEncoder()
        self.min_len = min_len
        self.max_len = max_len
        self.stride = stride

    def forward(self, tokens):
        L = tokens.shape[0]
        n_unknown = int((tokens == UNK).sum())
        if 2 * n_unknown > L:
            return torch.zeros(32), torch.tensor(False)
        if L < self.min_len:
            padded = torch.cat([tokens, tokens.new_full((self.min_len - L,), PAD)])
            emb = self.encoder(padded)
        elif L > self.max_len:
            n_win = (L - self.max_len + self.stride - 1) // self.stride + 1
            window_embs = []
            for w in range(n_win):
                s = min(w * self.stride, L - self.max_len)
                window_embs.append(self.encoder(tokens[s: s + self.max_len]))
            emb = torch.stack(window_embs).mean(0)
        else:
            emb = self.encoder(tokens)
        return emb, torch.tensor(True)


def model():
    torch.manual_seed(0)
    return ProteinWindowEmbedder().eval()


def _seq(g, L, n_unk=0):
    t = torch.randint(0, N_AA, (L,), generator=g)
    if n_unk:
        t[torch.randperm(L, generator=g)[:n_unk]] = UNK
    return (t,)


def example_inputs():
    g = torch.Generator().manual_seed(1)
    return _seq(g, 30, 2)


def dynamic_shapes():
    return ({0: torch.export.Dim("residues", min=2, max=1024)},)


def verify_inputs():
    g = torch.Generator().manual_seed(2)
    return [
        _seq(g, 10, 6),     # mostly unknown -> rejected
        _seq(g, 5),         # short peptide -> padded
        _seq(g, 40, 1),     # fits the context
        _seq(g, 60),        # two windows
        _seq(g, 130, 3),    # many windows
    ]
