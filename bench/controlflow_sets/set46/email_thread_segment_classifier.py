"""X: email-thread triage: split a token stream into messages on SEP tokens, encode each
message with a length-dependent encoder, attend over messages, classify urgency.

tokens (L,) int64 (SEP = 1, PAD = 0). Returns class probs (4,) and per-message attention
weights padded to MAX_MSGS (8,).
Constructs: 1, 2, 5, 6, 7, 8, 9
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

SEP, PAD, MAX_MSGS = 1, 0, 8


class MessageEncoder(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.conv = nn.Conv1d(dim, dim, 3, padding=1)
        self.proj = nn.Linear(dim, dim)

    def forward(self, e):
        # long messages get a local n-gram conv; short ones are just averaged
        if e.shape[0] > 6:
            h = F.relu(self.conv(e.t().unsqueeze(0)))[0].t()
            return torch.tanh(self.proj(h.max(0).values))
        return torch.tanh(self.proj(e.mean(0)))


class ThreadClassifier(nn.Module):
    def __init__(self, vocab=300, dim=16, n_layers=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=PAD)
        self.encoder = MessageEncoder(dim)
        self.attn = nn.Linear(dim, 1)
        self.mix = nn.ModuleList([nn.Linear(dim, dim) for _ in range(n_layers)])
        self.head = nn.Linear(dim, 4)

    def _split(self, tokens):
        segments, start = [], 0
        for i in range(tokens.shape[0]):
            if tokens[i] == SEP:
                segments.append((start, i))
                start = i + 1
        segments.append((start, tokens.shape[0]))
        return segments

    def forward(self, tokens):
        e = self.emb(tokens)
        msgs = []
        for s, t in self._split(tokens):
            if t - s == 0:
                continue  # empty message (two SEPs in a row)
            if (tokens[s:t] == PAD).all():
                continue  # padding tail
            msgs.append(self.encoder(e[s:t]))
            if len(msgs) == MAX_MSGS:
                break
        if len(msgs) == 0:
            return torch.full((4,), 0.25), torch.zeros(MAX_MSGS)
        H = torch.stack(msgs)
        for layer in self.mix:
            H = H + torch.tanh(layer(H))
        a = torch.softmax(self.attn(H)[:, 0], dim=0)
        pooled = (a.unsqueeze(1) * H).sum(0)
        weights = torch.cat([a, torch.zeros(MAX_MSGS - a.shape[0])])
        return torch.softmax(self.head(pooled), dim=-1), weights


def _thread(lengths, seed, pad=0):
    g = torch.Generator().manual_seed(seed)
    parts = []
    for k, n in enumerate(lengths):
        if k:
            parts.append(torch.tensor([SEP]))
        parts.append(torch.randint(2, 300, (n,), generator=g))
    parts.append(torch.zeros(pad, dtype=torch.long))
    return (torch.cat(parts),)


def model():
    torch.manual_seed(4615)
    return ThreadClassifier().eval()


def example_inputs():
    return _thread([9, 4, 0, 12], 1)


def dynamic_shapes():
    return ({0: torch.export.Dim("tokens", min=2, max=512)},)


def verify_inputs():
    return [
        example_inputs(),                    # long + short messages, one empty (continue)
        (torch.tensor([0, 0]),),             # L=min, only padding: no messages -> early return
        (torch.tensor([5, 9]),),             # L=min, one short message, no SEP
        _thread([3, 8], 2, pad=5),           # two short-ish messages, last one has trailing PADs (not all PAD)
        _thread([30] * 16, 3, pad=16),       # L=512 (max): more than 8 messages -> break
    ]
