"""Speaker diarization post-processing: merge consecutive segments into speaker turns and
re-identify speakers across turns, on a meeting-room device.

Segment embeddings (N dynamic) are projected and normalised; consecutive segments are merged while
similar, very short segments are absorbed; each closed turn is then matched against the speakers
seen so far (list read back in a loop, early break) or becomes a new speaker.
Tricky: for over a dynamic size with continue, lists built in a loop and read back in a nested
loop with break, data-dependent output size.
"""
import torch
import torch.nn.functional as F
from torch import nn

D = 32


class TurnMerger(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(D, D)
        with torch.no_grad():
            self.proj.weight.copy_(torch.eye(D) + 0.05 * torch.randn(D, D))
            self.proj.bias.zero_()
        self.merge_thr = 0.6
        self.min_dur = 0.3

    def forward(self, emb, dur):
        # emb: (N, D) segment embeddings, dur: (N,) seconds
        e = F.normalize(self.proj(emb), dim=-1)
        turns = []
        cur = e[0] * dur[0]
        cur_w = dur[0]
        for i in range(1, e.shape[0]):
            if dur[i] < self.min_dur:
                continue  # too short to judge, absorbed into the current turn
            sim = torch.dot(F.normalize(cur, dim=0), e[i])
            if sim > self.merge_thr:
                cur = cur + e[i] * dur[i]
                cur_w = cur_w + dur[i]
            else:
                turns.append(F.normalize(cur, dim=0))
                cur = e[i] * dur[i]
                cur_w = dur[i]
        turns.append(F.normalize(cur, dim=0))
        # assign speaker ids: match each turn against known speakers
        speakers = []
        labels = []
        for t in turns:
            label = len(speakers)
            for j in range(len(speakers)):
                if torch.dot(speakers[j], t) > self.merge_thr:
                    label = j
                    break
            if label == len(speakers):
                speakers.append(t)
            labels.append(label)
        return torch.stack(turns), torch.tensor(labels, dtype=torch.int64), torch.stack(speakers)


def model():
    torch.manual_seed(3)
    return TurnMerger().eval()


def _segments(pattern, durs, seed):
    g = torch.Generator().manual_seed(100)
    spk = torch.randn(4, D, generator=g)
    g2 = torch.Generator().manual_seed(seed)
    emb = spk[torch.tensor(pattern)] + 0.2 * torch.randn(len(pattern), D, generator=g2)
    return emb, torch.tensor(durs, dtype=torch.float32)


def example_inputs():
    return _segments([0, 0, 1, 1, 0, 2], [1.0, 2.0, 1.5, 0.2, 1.0, 2.0], 0)


def dynamic_shapes():
    n = torch.export.Dim("n", min=2, max=256)
    return ({0: n}, {0: n})


def verify_inputs():
    return [
        _segments([1, 1], [1.0, 1.0], 1),                       # one turn
        _segments([0, 1, 0, 1, 2, 2, 3], [1.0, 0.5, 1.2, 0.1, 2.0, 1.0, 0.8], 2),
        _segments([2, 3, 2, 1, 1, 1, 0, 3], [0.8] * 8, 3),
    ]
