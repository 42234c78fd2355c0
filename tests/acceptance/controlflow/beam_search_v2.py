"""Small beam-search decoder (batch 1) over a GRU cell; stops when every beam emitted EOS."""

import torch
from torch import nn

EOS = 2
BEAM = 3
MAX_LEN = 10


class BeamDecoder(nn.Module):
    def __init__(self, vocab=12, hidden=16):
        super().__init__()
        self.vocab = vocab
        self.embed = nn.Embedding(vocab, hidden)
        self.cell = nn.GRUCell(hidden, hidden)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, h0):
        h = h0.expand(BEAM, -1).contiguous()
        tokens = torch.zeros(BEAM, dtype=torch.long)
        scores = torch.tensor([0.0] + [float("-inf")] * (BEAM - 1))
        finished = torch.zeros(BEAM, dtype=torch.bool)
        history = torch.zeros(BEAM, 0, dtype=torch.long)
        for step in range(MAX_LEN):
            h = self.cell(self.embed(tokens), h)
            logp = torch.log_softmax(self.out(h), dim=-1)
            # finished beams only extend with EOS at no cost
            eos_only = torch.full_like(logp, float("-inf"))
            eos_only[:, EOS] = 0.0
            logp = torch.where(finished.unsqueeze(-1), eos_only, logp)
            cand = (scores.unsqueeze(-1) + logp).reshape(-1)
            scores, flat = cand.topk(BEAM)
            beam_idx = flat // self.vocab
            tokens = flat % self.vocab
            h = h[beam_idx]
            history = torch.cat([history[beam_idx], tokens.unsqueeze(-1)], dim=1)
            finished = finished[beam_idx] | (tokens == EOS)
            if finished.all():
                break
        return history[0], scores[0]


def model():
    torch.manual_seed(0)
    return BeamDecoder().eval()


def example_inputs():
    return (torch.randn(1, 16),)


def verify_inputs():
    m = model()
    eos_dir = m.out.weight[EOS].detach()
    return [((eos_dir / eos_dir.norm() * 60).unsqueeze(0),), (torch.zeros(1, 16),)]
