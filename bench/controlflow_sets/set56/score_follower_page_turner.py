"""Automatic page turner for a pianist: online score following on chroma.

Live audio arrives as 12-bin chroma frames; the score is a sequence of chord
events (also chroma) and the last event index of each of the first three pages
is known.  The follower is a small state machine: while FOLLOWING it only looks
a couple of events ahead of its current position; after several frames without
a good match it is LOST and searches the whole score until it re-locks (the
pianist took a repeat or skipped a section).  Pages are turned a little before
their last event is reached.  A small learned projection adapts the chroma to
the instrument's timbre before matching.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

FOLLOWING, LOST = 0, 1


class ChromaAdapter(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(12, 12)

    def forward(self, chroma):
        return F.normalize(chroma + 0.1 * torch.tanh(self.proj(chroma)), dim=-1)


class PageTurner(nn.Module):
    def __init__(self):
        super().__init__()
        self.adapt = ChromaAdapter()
        self.look_ahead = 3
        self.match = 0.85
        self.relock = 0.90
        self.patience = 4
        self.turn_early = 2

    def step_following(self, score, frame, pos):
        window = score[pos:pos + self.look_ahead]
        # a repeated chord inside the window: prefer the nearer event
        sims = window @ frame - 1e-3 * torch.arange(window.shape[0])
        return sims.max(), pos + int(torch.argmax(sims))

    def search_all(self, score, frame, pos):
        # identical chords elsewhere in the piece: prefer the first one after the
        # current position (repeats and skips go forward more often than back)
        n = score.shape[0]
        ahead = torch.remainder(torch.arange(n) - pos, n)
        sims = score @ frame - 1e-3 * ahead / n
        return sims.max(), int(torch.argmax(sims))

    def forward(self, audio, score_chroma, page_ends):
        # audio: (F, 12), score_chroma: (N, 12), page_ends: (3,) int64
        score = self.adapt(score_chroma)
        frames = self.adapt(audio)
        state, pos, misses, page = FOLLOWING, 0, 0, 0
        positions = []
        turns = torch.full((page_ends.shape[0],), -1, dtype=torch.long)
        for t in range(frames.shape[0]):
            if state == FOLLOWING:
                sim, best = self.step_following(score, frames[t], pos)
                if sim > self.match:
                    pos, misses = best, 0
                else:
                    misses += 1
                    if misses >= self.patience:
                        state = LOST
            else:
                sim, best = self.search_all(score, frames[t], pos)
                if sim > self.relock:
                    pos, misses, state = best, 0, FOLLOWING
            positions.append(pos)
            while page < page_ends.shape[0] and pos >= page_ends[page] - self.turn_early:
                turns[page] = t
                page += 1
        return torch.tensor(positions), turns, torch.tensor(state)


def model():
    torch.manual_seed(5615)
    return PageTurner().eval()


def _score(n, seed):
    g = torch.Generator().manual_seed(seed)
    roots = torch.randint(0, 12, (n,), generator=g)
    for i in range(1, n):
        while roots[i] == roots[i - 1]:
            roots[i] = (roots[i] + 5) % 12
    chroma = 0.35 * torch.rand(n, 12, generator=g) ** 2     # voicing / overtones
    for i, r in enumerate(roots.tolist()):
        quality = 4 if i % 3 else 3          # major / minor triads
        chroma[i, [r, (r + quality) % 12, (r + 7) % 12]] += 1.0
    return chroma


def _performance(score, events, seed, hold=2):
    g = torch.Generator().manual_seed(seed)
    frames = []
    for e in events:
        for _ in range(hold):
            if e < 0:
                frames.append(torch.rand(12, generator=g))          # applause / page noise
            else:
                frames.append(score[e] + 0.05 * torch.rand(12, generator=g))
    return torch.stack(frames)


def example_inputs():
    score = _score(40, 1)
    return (_performance(score, list(range(40)), 11), score, torch.tensor([12, 25, 36]))


def dynamic_shapes():
    f = torch.export.Dim("frames", min=4, max=400)
    n = torch.export.Dim("events", min=4, max=128)
    return ({0: f}, {0: n}, None)


def verify_inputs():
    long_score = _score(128, 3)
    repeat = list(range(0, 60)) + [-1] * 3 + list(range(20, 128)) + list(range(99, 128))
    lost_score = _score(30, 4)
    lost = list(range(0, 8)) + [-1] * 6 + list(range(18, 30))
    return [
        # 80 frames, clean performance of 40 events -> three page turns, stays FOLLOWING
        example_inputs(),
        # min 4 frames on min 4 events -> plays through, the first page ends at event 3 only
        (_performance(_score(4, 2), [0, 1], 21), _score(4, 2), torch.tensor([3, 50, 90])),
        # max 400 frames / max 128 events: noise after event 59 -> LOST; the pianist
        # jumps back to 20 -> re-lock; plays to the end, takes the repeat back to 99
        # (LOST again, re-lock at 101); the three pages turn along the way
        (_performance(long_score, repeat, 31)[:400], long_score, torch.tensor([30, 70, 110])),
        # 52 frames: 12 noise frames -> LOST for several frames (no re-lock), then a
        # jump to event 18 -> re-lock past two page ends at once (while runs twice)
        (_performance(lost_score, lost, 41), lost_score, torch.tensor([12, 15, 27])),
    ]
