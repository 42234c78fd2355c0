"""Topic segmentation of meeting transcripts (TextTiling with neural sentence
embeddings): a small residual encoder refines sentence embeddings, block
similarities are computed at every gap, depth scores climb to the nearest
peaks on both sides, and boundaries are placed at deep gaps while keeping a
minimum segment length.

Input: sent_emb [S, 32] (sentence embeddings of one transcript).
Outputs: boundary flags [S] (1 = a new topic starts at this sentence), segment id [S],
gap similarities [S - 2*block + 1] (empty-safe: zeros(1) when too short).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SentenceRefiner(nn.Module):
    def __init__(self, dim=32, layers=2, normalize=True):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(dim, dim) for _ in range(layers)])
        self.normalize = normalize

    def forward(self, x):
        for layer in self.layers:
            x = x + 0.5 * torch.tanh(layer(x))
        if self.normalize:
            x = F.normalize(x, dim=-1)
        return x


def gap_similarities(h, block):
    sims = []
    for g in range(block, h.shape[0] - block + 1):
        left = h[g - block:g].mean(dim=0)
        right = h[g:g + block].mean(dim=0)
        sims.append(F.cosine_similarity(left, right, dim=0))
    return torch.stack(sims)


def depth_scores(sims):
    depths = []
    n = sims.shape[0]
    for i in range(n):
        left = i
        while left > 0 and sims[left - 1] >= sims[left]:
            left -= 1
        right = i
        while right < n - 1 and sims[right + 1] >= sims[right]:
            right += 1
        depths.append((sims[left] - sims[i]) + (sims[right] - sims[i]))
    return torch.stack(depths)


class TextTiler(nn.Module):
    def __init__(self, block=3, min_segment=5):
        super().__init__()
        self.block = block
        self.min_segment = min_segment
        self.refiner = SentenceRefiner()

    def forward(self, sent_emb):
        n = sent_emb.shape[0]
        h = self.refiner(sent_emb)
        if n < 2 * self.block + 1:
            # too short to contain a topic change
            return torch.zeros(n), torch.zeros(n), torch.zeros(1)

        sims = gap_similarities(h, self.block)
        depth = depth_scores(sims)
        cutoff = depth.mean() + 0.5 * depth.std()

        boundaries = torch.zeros(n)
        last = 0
        for i in range(depth.shape[0]):
            if depth[i] <= cutoff:
                continue
            if i + 1 < depth.shape[0] and depth[i + 1] > depth[i]:
                continue  # an even deeper gap follows
            pos = i + self.block
            if pos - last < self.min_segment:
                continue
            if n - pos < self.min_segment:
                break
            boundaries[pos] = 1.0
            last = pos
        return boundaries, torch.cumsum(boundaries, dim=0), sims


def model():
    torch.manual_seed(19)
    return TextTiler().eval()


def _transcript(topic_lengths, seed, noise=0.6):
    g = torch.Generator().manual_seed(seed)
    parts = []
    for length in topic_lengths:
        center = torch.randn(32, generator=g)
        parts.append(center + noise * torch.randn(length, 32, generator=g))
    return (torch.cat(parts),)


def example_inputs():
    return _transcript([9, 12, 8], seed=1)


def dynamic_shapes():
    return ({0: torch.export.Dim("sentences", min=2, max=200)},)


def verify_inputs():
    return [
        example_inputs(),  # three topics: deepest gaps become boundaries, shallow / not-yet-deepest ones skipped
        _transcript([5], seed=2),  # 5 sentences < 2*block+1 -> early return
        _transcript([3, 3, 3, 3, 10], seed=3),  # rapid topic changes: boundaries too close -> skipped
        _transcript([12, 14, 3], seed=4),  # deep gap too close to the end -> break
        _transcript([7, 9, 6, 11, 8, 10], seed=5),  # longer meeting, several boundaries
    ]
