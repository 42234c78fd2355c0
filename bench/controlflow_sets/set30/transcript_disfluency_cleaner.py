"""Disfluency removal for meeting transcripts before summarisation (speech NLP) (kind X).

Input: word embeddings of an ASR transcript (L, 16); feature 0 is a filler-lexicon cue
("uh", "um", "you know"), feature 1 marks an end-of-utterance token from the ASR
endpointer.  The words go through a residual per-word encoder stack (ModuleList), a
filler probability is predicted, and a cleaning loop keeps a Python list of word vectors:
fillers are dropped (continue), immediate repetitions ("I I want") keep only the last
repeat (continue), and the end-of-utterance token stops the utterance (break).  Long
transcripts are cleaned in fixed-size chunks (nested loops); if everything was removed an
empty marker is returned.

constructs: 1 (if on tensor predicates), 2 (early return), 3 (and / not with tensor
            predicates), 5 (for over dynamic L and over chunks, Python list of tensors,
            torch.stack), 6 (continue / break on tensor conditions), 7 (helper method with
            the loop), 8 (branch on L), 9 (ModuleList loop, config flag)
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DisfluencyCleaner(nn.Module):
    def __init__(self, d=16, n_layers=2, chunk=24, filler_thresh=0.5, repeat_cos=0.95,
                 keep_fillers=False):
        super().__init__()
        self.encoders = nn.ModuleList(nn.Linear(d, d) for _ in range(n_layers))
        self.filler_head = nn.Linear(d, 1)
        self.chunk = chunk
        self.filler_thresh = filler_thresh
        self.repeat_cos = repeat_cos
        self.keep_fillers = keep_fillers

    def clean(self, words, enc, filler_p, kept):
        for i in range(words.shape[0]):
            if words[i, 1] > 0.5:
                return True                      # end of utterance reached
            if filler_p[i] > self.filler_thresh and not self.keep_fillers:
                continue
            if kept and F.cosine_similarity(enc[i], kept[-1], dim=0) > self.repeat_cos:
                kept[-1] = enc[i]
                continue
            kept.append(enc[i])
        return False

    def forward(self, words):
        x = words
        for enc in self.encoders:
            x = x + torch.tanh(enc(x))
        filler_p = torch.sigmoid(0.5 * self.filler_head(x).squeeze(1) + 8.0 * (words[:, 0] - 0.5))

        kept = []
        if words.shape[0] > self.chunk:
            for start in range(0, words.shape[0], self.chunk):
                stop = start + self.chunk
                if self.clean(words[start:stop], x[start:stop], filler_p[start:stop], kept):
                    break
        else:
            self.clean(words, x, filler_p, kept)

        if not kept:
            return torch.zeros(1, words.shape[1]), torch.zeros(1)
        return torch.stack(kept), torch.full((1,), float(len(kept)))


def model():
    torch.manual_seed(320)
    return DisfluencyCleaner().eval()


def _transcript(pattern, seed):
    """pattern: one char per word. w = new word, r = repeat of previous word,
    f = filler, e = end of utterance."""
    g = torch.Generator().manual_seed(seed)
    rows = []
    prev = None
    for c in pattern:
        if c == "r" and prev is not None:
            v = prev.clone()
        else:
            v = torch.randn(16, generator=g)
            v[0] = 0.0
            v[1] = 0.0
        if c == "f":
            v[0] = 1.0
        if c == "e":
            v[1] = 1.0
        rows.append(v)
        prev = v
    return (torch.stack(rows),)


def example_inputs():
    return _transcript("wwfwrwwfwwrrw", 0)


def dynamic_shapes():
    return ({0: torch.export.Dim("words", min=2, max=2048)},)


def verify_inputs():
    return [
        example_inputs(),                       # short (L=13): fillers dropped, repeats collapsed, no end marker
        _transcript("ff", 1),                   # only fillers: nothing kept -> early return
        _transcript("wwe" + "w" * 10, 2),       # end marker at word 3: clean() returns early, rest ignored
        _transcript("wfwrw" * 12, 3),           # L=60 > 24: three chunks, no end marker (chunk loop completes)
        _transcript("w" * 30 + "e" + "w" * 9, 4),   # L=40: end marker in the second chunk -> break out of the chunk loop
        _transcript("w" * 23 + "rr" + "fw" * 3 + "w", 5),   # L=32: chunked; a repeat run crosses the chunk boundary (kept list carried over)
    ]
