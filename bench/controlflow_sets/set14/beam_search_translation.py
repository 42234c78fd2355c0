"""Small-beam (3) translation decoding for an on-device phrasebook: mean-pooled source
encoder, GRU decoder, length prior on EOS. The step budget is an input tensor; decoding
stops early when every beam has emitted EOS. Returns the best hypothesis (data-dependent
length), its score and the index of the winning beam."""

import torch
from torch import nn
import torch.nn.functional as F

V = 24
PAD, BOS, EOS = 0, 1, 2
BEAM = 3
HIDDEN = 32


class Translator(nn.Module):
    def __init__(self, length_norm: bool = True):
        super().__init__()
        self.src_emb = nn.Embedding(V, HIDDEN)
        self.tgt_emb = nn.Embedding(V, HIDDEN)
        self.bridge = nn.Linear(HIDDEN, HIDDEN)
        self.cell = nn.GRUCell(HIDDEN, HIDDEN)
        self.out = nn.Linear(HIDDEN, V)
        self.length_norm = length_norm

    def step_logprobs(self, tok, h, t, src_len):
        h = self.cell(self.tgt_emb(tok), h)
        logits = self.out(h) * 6.0
        eos_prior = torch.zeros(V)
        eos_prior[EOS] = 1.5 * (t - src_len)
        logits = logits + eos_prior
        logits[:, PAD] = float("-inf")
        logits[:, BOS] = float("-inf")
        return F.log_softmax(logits, dim=-1), h

    def forward(self, src: torch.Tensor, max_len: torch.Tensor):
        # src: (1, S) token ids; max_len: (1,) int64 decoding budget
        S = src.shape[1]
        h = torch.tanh(self.bridge(self.src_emb(src).mean(dim=1))).expand(BEAM, HIDDEN)
        scores = torch.tensor([0.0, float("-inf"), float("-inf")])
        tokens = torch.full((BEAM, 1), BOS, dtype=torch.long)
        finished = torch.zeros(BEAM, dtype=torch.bool)
        pad_row = torch.full((V,), float("-inf"))
        pad_row[PAD] = 0.0
        for t in range(int(max_len.item())):
            if finished.all():
                break
            logp, h = self.step_logprobs(tokens[:, -1], h, t, S)
            logp = torch.where(finished[:, None], pad_row, logp)  # finished beams only pad
            cand = (scores[:, None] + logp).reshape(-1)
            top, idx = torch.topk(cand, BEAM)
            beam_src = idx // V
            tok = idx % V
            tokens = torch.cat([tokens[beam_src], tok[:, None]], dim=1)
            h = h[beam_src]
            finished = finished[beam_src] | (tok == EOS)
            scores = top
        lengths = (tokens != PAD).sum(dim=1).float()
        final = scores
        if self.length_norm:  # static
            final = scores / lengths
        best = torch.argmax(final)
        return tokens[best], scores[best].reshape(1), best.reshape(1)


def model() -> nn.Module:
    torch.manual_seed(0)
    return Translator().eval()


def _src(S, budget, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(3, V, (1, S), generator=g), torch.tensor([budget])


def example_inputs() -> tuple:
    return _src(5, 12, 0)


def dynamic_shapes():
    return ({1: torch.export.Dim("src", min=2, max=16)}, None)


def verify_inputs() -> list:
    return [
        _src(8, 3, 1),    # budget runs out before EOS
        _src(2, 0, 2),    # no budget: BOS only
        _src(16, 40, 3),  # long source, early stop
        _src(3, 1, 4),
    ]
