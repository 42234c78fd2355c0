"""E-commerce search-query spelling normaliser over character ids.

Vocabulary: 0 pad, 1 space, 2..27 'a'..'z', 28..53 'A'..'Z', 54..63 digits.
Steps: lowercase; collapse runs of more than two equal characters and repeated spaces
(output length is data dependent); then a char-CNN proposes corrections and the single
most confident one is applied per pass, until nothing confident is left or the pass cap is
reached.
"""
import torch
from torch import nn
import torch.nn.functional as F

VOCAB = 64
SPACE = 1


class CharCNN(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, dim)
        self.conv1 = nn.Conv1d(dim, dim, 3, padding=1)
        self.conv2 = nn.Conv1d(dim, dim, 3, padding=1)
        self.out = nn.Linear(dim, VOCAB)
        self.copy_bias = 2.5

    def forward(self, ids):
        h = self.emb(ids).t().unsqueeze(0)
        h = h + torch.relu(self.conv1(h))
        h = h + torch.relu(self.conv2(h))
        # copy bias: the model is trained to mostly keep the input character
        return self.out(h[0].t()) * 2.0 + self.copy_bias * F.one_hot(ids, VOCAB).float()


class QueryNormaliser(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = CharCNN()
        self.min_conf = 0.25
        self.max_passes = 2

    def forward(self, ids: torch.Tensor):
        upper = (ids >= 28) & (ids < 54)
        ids = torch.where(upper, ids - 26, ids)
        kept = []
        prev = ids[0]
        run = 0
        for i in range(ids.shape[0]):
            c = ids[i]
            run = run + 1 if c == prev else 1
            prev = c
            if run > 2 or (c == SPACE and run > 1):
                continue
            kept.append(c)
        ids = torch.stack(kept)
        passes = 0
        changed = torch.ones((), dtype=torch.bool)
        while changed and passes < self.max_passes:
            probs = torch.softmax(self.net(ids), dim=-1)
            conf, best = probs.max(dim=-1)
            fix = (best != ids) & (conf > self.min_conf) & (ids != SPACE)
            changed = fix.any()
            if changed:
                j = torch.argmax(torch.where(fix, conf, torch.zeros_like(conf)))
                ids = torch.cat([ids[:j], best[j:j + 1], ids[j + 1:]])
            passes += 1
        return ids


def model():
    torch.manual_seed(11)
    return QueryNormaliser().eval()


def _q(text):
    ids = []
    for ch in text:
        if ch == " ":
            ids.append(SPACE)
        elif ch.islower():
            ids.append(2 + ord(ch) - ord("a"))
        elif ch.isupper():
            ids.append(28 + ord(ch) - ord("A"))
        else:
            ids.append(54 + int(ch))
    return (torch.tensor(ids, dtype=torch.long),)


def example_inputs():
    return _q("Runing  shoes 42")


def dynamic_shapes():
    return ({0: torch.export.Dim("L", min=2, max=128)},)


def verify_inputs():
    return [_q("tv"), _q("IPHONE   caseeee blue"), _q("sofa bed with storage drawers grey 200cm"),
            _q("aaa"), _q("wirelesss earbudds noise cancelling")]
