"""Lyrics structure tagging for a music-streaming app: embeds each lyric line,
groups lines that repeat (high cosine similarity and similar syllable count),
takes the most-repeated group as the chorus, extends each chorus occurrence
with the lines that repeat together with it, and tags every line
(verse / chorus / other) with a small learned head that sees the chorus mask.

Inputs: line_feats [L, 48] (sentence-encoder features per lyric line), syllables [L].
Outputs: chorus mask [L], line tag probabilities [L, 3].
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ChorusDetector(nn.Module):
    def __init__(self, dim=48, sim_threshold=0.9, max_syllable_diff=2.0, max_repeats=6):
        super().__init__()
        self.sim_threshold = sim_threshold
        self.max_syllable_diff = max_syllable_diff
        self.max_repeats = max_repeats
        self.proj = nn.Linear(dim, 32)
        self.tagger = nn.Sequential(nn.Linear(33, 32), nn.ReLU(), nn.Linear(32, 3))

    def repeat_groups(self, sim, syllables):
        n = sim.shape[0]
        assigned = [False] * n
        groups = []
        for i in range(n):
            if assigned[i]:
                continue
            members = [i]
            for j in range(i + 1, n):
                if assigned[j]:
                    continue
                if sim[i, j] > self.sim_threshold and (syllables[i] - syllables[j]).abs() <= self.max_syllable_diff:
                    members.append(j)
                    assigned[j] = True
                    if len(members) >= self.max_repeats:
                        break
            if len(members) > 1:
                groups.append(members)
        return groups

    def forward(self, line_feats, syllables):
        h = F.normalize(self.proj(line_feats), dim=-1)
        sim = h @ h.t()
        n = sim.shape[0]
        groups = self.repeat_groups(sim, syllables)
        mask = torch.zeros(n)
        if not groups:
            tags = torch.softmax(self.tagger(torch.cat([h, mask.unsqueeze(1)], dim=1)), dim=-1)
            return mask, tags

        chorus = max(groups, key=len)
        mask[chorus] = 1.0
        # a chorus is usually several lines: extend the occurrences while the following lines repeat too
        first = chorus[0]
        for start in chorus[1:]:
            offset = 1
            while start + offset < n and mask[start + offset] == 0 and sim[start + offset, first + offset] > self.sim_threshold:
                mask[first + offset] = 1.0
                mask[start + offset] = 1.0
                offset += 1
        tags = torch.softmax(self.tagger(torch.cat([h, mask.unsqueeze(1)], dim=1)), dim=-1)
        return mask, tags


def model():
    torch.manual_seed(17)
    return ChorusDetector().eval()


def _song(structure, seed, noise=0.05):
    """structure: string of section letters per line, same letter = same lyric line"""
    g = torch.Generator().manual_seed(seed)
    bank = {}
    feats, syl = [], []
    for ch in structure:
        if ch not in bank:
            bank[ch] = (torch.randn(48, generator=g), float(torch.randint(6, 14, (1,), generator=g)))
        base, s = bank[ch]
        feats.append(base + noise * torch.randn(48, generator=g))
        syl.append(s)
    return torch.stack(feats), torch.tensor(syl)


def example_inputs():
    # verse, chorus (2 lines), verse, chorus, bridge, chorus
    return _song("abcdXYefghXYijXY", seed=1)


def dynamic_shapes():
    lines = torch.export.Dim("lines", min=2, max=80)
    return ({0: lines}, {0: lines})


def verify_inputs():
    no_rep = _song("abcdefgh", seed=2)
    syl_mismatch = _song("abcaXd", seed=3)
    syl_mismatch[1][3] = syl_mismatch[1][0] + 5.0  # same words, very different syllable count (different melody)
    return [
        example_inputs(),  # first chorus line repeats 3x; extension adds the second line, stops at the verse
        no_rep,  # no repeated lines -> early return
        _song("ZZZZZZZZab", seed=4),  # one line repeated 8 times -> group capped at max_repeats (break); 2nd group
        syl_mismatch,  # same text but syllable counts differ -> not grouped; no repeats -> early return
        _song("abQRSTcdQRSTefQRST", seed=5),  # 4-line chorus; extension runs several lines
        _song("aa", seed=6),  # minimum length: a repeated line at the very end (extension hits the end)
    ]
