"""Top-k beam-free decoding with deterministic pick, stopping on cumulative log-prob.

while loop whose condition mixes a Python step counter and a tensor (`and`), stacked outputs.
"""

import torch
import torch.nn.functional as F
from torch import nn

VOCAB, HID, K = 40, 24, 5


class TopKDecoder(nn.Module):
    def __init__(self, max_steps: int = 12):
        super().__init__()
        self.max_steps = max_steps
        self.emb = nn.Embedding(VOCAB, HID)
        self.rnn = nn.GRUCell(HID, HID)
        self.proj = nn.Linear(HID, VOCAB)
        self.rerank = nn.Linear(HID, K)

    def pick(self, h, seen):
        logp = F.log_softmax(self.proj(h), dim=-1) - 2.0 * seen
        top_lp, top_ix = logp.topk(K, dim=-1)
        choice = (top_lp + 0.1 * self.rerank(h)).argmax(dim=-1, keepdim=True)
        return top_ix.gather(1, choice).squeeze(1), top_lp.gather(1, choice).squeeze(1)

    def forward(self, h0, min_logp):
        h = h0
        seen = torch.zeros(h0.shape[0], VOCAB)
        total = torch.zeros(h0.shape[0])
        tokens = [torch.zeros(h0.shape[0], dtype=torch.long)]
        steps = 0
        while steps < self.max_steps and total.min() > min_logp:
            tok, lp = self.pick(h, seen)
            total = total + lp
            seen = seen + F.one_hot(tok, VOCAB).float()
            h = self.rnn(self.emb(tok), h)
            tokens.append(tok)
            steps += 1
        return torch.stack(tokens, dim=1), total


def model():
    torch.manual_seed(0)
    return TopKDecoder().eval()


def example_inputs():
    torch.manual_seed(1)
    return (torch.randn(2, HID), torch.tensor(-8.0))


def verify_inputs():
    torch.manual_seed(2)
    h = torch.randn(2, HID)
    return [
        (h, torch.tensor(1.0)),  # 0 > 1 false: zero iterations
        (h, torch.tensor(-6.0)),  # stops on cumulative log-prob after a few steps
        (h, torch.tensor(-1e6)),  # runs to max_steps
    ]
