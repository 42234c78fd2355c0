"""Scansion of a line of English verse from per-syllable prosodic features.

Each syllable comes with vowel duration (x100 ms), pitch rise, whether it
belongs to a content word, and the dictionary stress probability.  A small
tagger refines the stress probability; function words need more evidence to
count as stressed.  The marked line is then tried against iambic, trochaic,
anapestic and dactylic feet; a meter is abandoned as soon as its mismatches
exceed a third of the line, and a trailing incomplete foot (catalexis) is
allowed.  Over-long lines are scanned on their first sixteen syllables.
"""
import torch
import torch.nn as nn

METERS = [("iamb", [0, 1]), ("trochee", [1, 0]), ("anapest", [0, 0, 1]), ("dactyl", [1, 0, 0])]


class StressTagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, syllables):
        return torch.sigmoid(self.net(syllables)).squeeze(-1)


class MeterScanner(nn.Module):
    def __init__(self):
        super().__init__()
        self.tagger = StressTagger()
        self.max_syllables = 16
        self.max_mismatch = 1.0 / 3.0

    def foot_mismatches(self, marks, start, pattern):
        miss = 0
        for k, want in enumerate(pattern):
            if start + k >= marks.shape[0]:
                break              # catalectic last foot
            if marks[start + k] != want:
                miss += 1
        return miss

    def scan(self, marks, pattern):
        allowed = max(1, int(self.max_mismatch * marks.shape[0]))
        miss, feet = 0, 0
        for start in range(0, marks.shape[0], len(pattern)):
            miss += self.foot_mismatches(marks, start, pattern)
            feet += 1
            if miss > allowed:
                break
        else:
            return miss / marks.shape[0], feet
        return None, 0

    def forward(self, syllables):
        # syllables: (S, 4)
        prob = 0.8 * syllables[:, 3] + 0.2 * self.tagger(syllables)
        marks = torch.stack([(p > 0.65) if content < 0.5 else (p > 0.5)
                             for p, content in zip(prob, syllables[:, 2])]).long()
        if marks.shape[0] > self.max_syllables:
            marks = marks[:self.max_syllables]

        ratios, feet = [], []
        for name, pattern in METERS:
            ratio, n_feet = self.scan(marks, pattern)
            if ratio is None:
                ratios.append(1.0)      # abandoned early
                feet.append(0)
                continue
            ratios.append(ratio)
            feet.append(n_feet)
        scores = torch.tensor(ratios)
        if (scores >= 1.0).all():
            return scores, torch.tensor(-1), torch.tensor(0), marks    # free verse
        # ties go to the more common (earlier listed) meter
        best = int(torch.argmin(scores + 1e-3 * torch.arange(len(METERS))))
        return scores, torch.tensor(best), torch.tensor(feet[best]), marks


def model():
    torch.manual_seed(5617)
    return MeterScanner().eval()


def _line(pattern, seed, content=None):
    g = torch.Generator().manual_seed(seed)
    n = len(pattern)
    stress = torch.tensor(pattern, dtype=torch.float32)
    lex = 0.1 + 0.8 * stress + 0.05 * torch.rand(n, generator=g)
    dur = 0.8 + 0.6 * stress + 0.1 * torch.rand(n, generator=g)
    pitch = 0.5 * stress + 0.1 * torch.rand(n, generator=g)
    cw = torch.ones(n) if content is None else torch.tensor(content, dtype=torch.float32)
    return torch.stack([dur, pitch, cw, lex], dim=1)


def example_inputs():
    # "Shall I compare thee to a summer's day" - iambic pentameter, function words marked
    return (_line([0, 1] * 5, 1, content=[0, 1, 0, 1, 0, 0, 0, 1, 1, 1]),)


def dynamic_shapes():
    s = torch.export.Dim("syllables", min=4, max=24)
    return ({0: s},)


def verify_inputs():
    return [
        # 10 syllables of iambic pentameter -> iamb wins, other meters abandoned early
        example_inputs(),
        # min 4 syllables "Tyger Tyger" -> trochaic, two full feet
        (_line([1, 0, 1, 0], 2),),
        # 11 syllables of anapests with a catalectic last foot -> anapest
        (_line([0, 0, 1] * 3 + [0, 0], 3),),
        # max 24 syllables (two dactylic hexameter halves run together) -> cut to 16, dactyl
        (_line([1, 0, 0] * 8, 4),),
        # 9 syllables of heavy spondees then slack -> every meter abandoned -> free verse (-1)
        (_line([1, 1, 1, 1, 0, 0, 0, 0, 1], 5),),
    ]
