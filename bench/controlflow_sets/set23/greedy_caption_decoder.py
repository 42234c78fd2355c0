"""Image-caption decoder: GRU cell conditioned on pooled image features,
greedy decoding with a growing end-of-sequence reward, stops early once every
caption in the batch has emitted EOS."""
import torch
import torch.nn as nn


class GreedyCaptionDecoder(nn.Module):
    def __init__(self, feat_dim=16, vocab=12, hidden=24, eos_reward=0.6, sharpen=12.0):
        super().__init__()
        self.pad, self.bos, self.eos = 0, 1, 2
        self.init_h = nn.Linear(feat_dim, hidden)
        self.embed = nn.Embedding(vocab, hidden)
        self.cell = nn.GRUCell(hidden, hidden)
        self.out = nn.Linear(hidden, vocab)
        with torch.no_grad():
            self.out.weight.mul_(sharpen)
        self.eos_reward = eos_reward

    def step_logits(self, h, step):
        logits = self.out(h)
        bonus = torch.zeros_like(logits)
        bonus[:, self.eos] = self.eos_reward * step
        logits = logits + bonus
        # never emit the special start / padding symbols
        logits[:, self.pad] = float("-inf")
        logits[:, self.bos] = float("-inf")
        return logits.log_softmax(-1)

    def forward(self, feats, max_len):
        batch = feats.shape[0]
        h = torch.tanh(self.init_h(feats))
        tok = torch.full((batch,), self.bos, dtype=torch.long)
        finished = torch.zeros(batch, dtype=torch.bool)
        tokens, scores = [], []
        for step in range(int(max_len.item())):
            h = self.cell(self.embed(tok), h)
            best, tok = self.step_logits(h, step).max(-1)
            tok = torch.where(finished, torch.full_like(tok, self.pad), tok)
            best = torch.where(finished, torch.zeros_like(best), best)
            tokens.append(tok)
            scores.append(best)
            finished = finished | (tok == self.eos)
            if bool(finished.all()):
                break
        if not tokens:
            return torch.full((batch, 0), self.pad, dtype=torch.long), torch.zeros(batch)
        return torch.stack(tokens, 1), torch.stack(scores, 1).sum(1)


def model():
    torch.manual_seed(0)
    return GreedyCaptionDecoder().eval()


def _feats(b, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(b, 16, generator=g)


def example_inputs():
    return (_feats(3, 10), torch.tensor(12))


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=2, max=32)}, None)


def verify_inputs():
    return [
        (_feats(2, 11), torch.tensor(3)),
        (_feats(4, 12), torch.tensor(0)),
        (_feats(5, 13), torch.tensor(20)),
    ]
