"""On-device keyboard autocorrect: banded Levenshtein distance from the typed word to trie
candidates (with an early cutoff), combined with a word-frequency prior."""
import torch
import torch.nn as nn


def banded_levenshtein(a, b, max_dist):
    """Edit distance between id sequences a [La] and b [Lb] (0 = padding in b).
    Returns max_dist + 1 as soon as every alignment is already too far."""
    lb = int((b > 0).sum().item())
    prev = torch.arange(lb + 1)
    for i in range(a.shape[0]):
        cur = [prev[0] + 1]
        for j in range(lb):
            cost = 0 if a[i] == b[j] else 1
            cur.append(torch.minimum(torch.minimum(prev[j + 1] + 1, cur[j] + 1), prev[j] + cost))
        prev = torch.stack(cur)
        if prev.min() > max_dist:
            return torch.tensor(max_dist + 1)
    return prev[lb]


class SpellEditDistance(nn.Module):
    def __init__(self, max_dist=2, prior_weight=0.45):
        super().__init__()
        self.max_dist = max_dist
        self.prior_weight = prior_weight

    def forward(self, typed, cands, log_freq):
        dists = []
        for k in range(cands.shape[0]):  # static
            dists.append(banded_levenshtein(typed, cands[k], self.max_dist))
        dists = torch.stack(dists)
        score = dists.to(torch.float32) - self.prior_weight * log_freq
        best = score.argmin()
        if dists[best] > self.max_dist:
            best = torch.tensor(-1)
        return dists, best


def model():
    return SpellEditDistance().eval()


def _ids(word, n=None):
    ids = [ord(ch) - 96 for ch in word]
    if n is not None:
        ids = ids + [0] * (n - len(ids))
    return torch.tensor(ids, dtype=torch.long)


def _case(typed, cands, freqs):
    return (_ids(typed), torch.stack([_ids(c, 8) for c in cands]), torch.tensor(freqs))


def example_inputs():
    return _case("recieve", ["receive", "relieve", "recipe", "deceive", ""], [-1.2, -2.9, -2.1, -3.4, -9.0])


def dynamic_shapes():
    return ({0: torch.export.Dim("typed_len", min=2, max=16)}, None, None)


def verify_inputs():
    return [
        _case("teh", ["the", "ten", "tech", "eh", "toe"], [-0.3, -2.2, -2.6, -4.1, -3.3]),
        _case("xylqzv", ["xylem", "silver", "zebra", "quiz", "lazy"], [-5.0, -3.1, -4.4, -3.8, -2.7]),
        _case("hello", ["hello", "hallo", "", "help", "shell"], [-1.1, -4.2, -9.0, -1.9, -3.0]),
    ]
