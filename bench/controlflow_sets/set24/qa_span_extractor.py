"""Extractive question answering head with sliding windows over long contexts.

Contexts longer than `max_len` tokens are processed in overlapping windows
(stride `stride`); each token keeps the logits from the window where it is
most central.  Candidate answer spans start at tokens whose start logit is
positive and end at the first token within `max_answer` tokens whose end
logit is positive.  Output: [n_spans, 3] = (start, end, score); the number of
spans depends on the data.
"""
import torch
import torch.nn as nn


class TokenScorer(nn.Module):
    def __init__(self, vocab=300, d=24):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.conv = nn.Conv1d(d, d, 3, padding=1)
        self.out = nn.Linear(d, 2)

    def forward(self, ids):                            # [t] -> [t, 2]
        h = self.embed(ids)
        h = h + torch.relu(self.conv(h.t().unsqueeze(0))[0].t())
        return self.out(h)


class QASpanExtractor(nn.Module):
    def __init__(self, max_len=32, stride=16, max_answer=5):
        super().__init__()
        self.max_len = max_len
        self.stride = stride
        self.max_answer = max_answer
        self.scorer = TokenScorer()

    def token_logits(self, ids):
        T = ids.shape[0]
        if T <= self.max_len:
            return self.scorer(ids)
        logits = torch.zeros(T, 2)
        best_dist = torch.full((T, 1), float(T))
        start = 0
        while True:
            end = min(start + self.max_len, T)
            win = self.scorer(ids[start:end])
            pos = torch.arange(start, end, dtype=torch.float32).unsqueeze(1)
            dist = (pos - (start + end - 1) / 2).abs()
            better = dist < best_dist[start:end]
            logits[start:end] = torch.where(better, win, logits[start:end])
            best_dist[start:end] = torch.minimum(dist, best_dist[start:end])
            if end == T:
                break
            start += self.stride
        return logits

    def forward(self, ids):
        logits = self.token_logits(ids)
        start_logit, end_logit = logits[:, 0], logits[:, 1]
        T = ids.shape[0]
        spans = []
        for s in range(T):
            if start_logit[s] <= 0:
                continue
            for e in range(s, min(s + self.max_answer, T)):
                if end_logit[e] > 0:
                    score = start_logit[s] + end_logit[e]
                    spans.append(torch.stack([torch.tensor(float(s)), torch.tensor(float(e)), score]))
                    break
        if len(spans) == 0:
            return torch.zeros(0, 3)
        return torch.stack(spans)


def model():
    torch.manual_seed(0)
    m = QASpanExtractor()
    with torch.no_grad():
        m.scorer.out.weight.mul_(3.0)
        m.scorer.out.bias.copy_(torch.tensor([-1.5, -1.0]))
    return m.eval()


def example_inputs():
    g = torch.Generator().manual_seed(0)
    return (torch.randint(0, 300, (24,), generator=g),)


def dynamic_shapes():
    return ({0: torch.export.Dim("context_len", min=2, max=256)},)


def verify_inputs():
    g = torch.Generator().manual_seed(20)
    return [
        (torch.randint(0, 300, (3,), generator=g),),     # short context
        (torch.randint(0, 300, (20,), generator=g),),    # single window
        (torch.randint(0, 300, (40,), generator=g),),    # two windows
        (torch.randint(0, 300, (75,), generator=g),),    # several windows
    ]
