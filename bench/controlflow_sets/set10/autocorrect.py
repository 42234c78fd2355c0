"""Keyboard autocorrect scorer: per-keystroke touch distributions score a list of
same-length dictionary candidates (spatial likelihood + word prior); the best one
replaces the literal typed string only if it wins by a margin."""
import torch
from torch import nn


class AutocorrectScorer(nn.Module):
    def __init__(self, alphabet=26):
        super().__init__()
        # learned per-key confusion smoothing
        self.key_mix = nn.Linear(alphabet, alphabet, bias=False)
        self.prior_w = nn.Parameter(torch.tensor(0.3))
        self.margin = 1.0
        self.rare = -12.0
        self.oov_logfreq = -14.0   # the literal typed string is not a dictionary word

    def char_logprobs(self, touch):
        mixed = touch + 0.1 * torch.softmax(self.key_mix(touch), dim=-1)
        return torch.log(mixed / mixed.sum(dim=-1, keepdim=True))

    def forward(self, touch, cands, cand_logfreq):
        # touch: (L, 26) probabilities, cands: (N, L) int64, cand_logfreq: (N,)
        lp = self.char_logprobs(touch)
        typed = torch.argmax(touch, dim=-1)
        typed_score = lp.gather(1, typed[:, None]).sum() + self.prior_w * self.oov_logfreq
        best = typed_score
        best_i = -1
        for i in range(cands.shape[0]):
            if cand_logfreq[i] < self.rare:
                continue                          # too rare to autocorrect into
            spatial = lp.gather(1, cands[i][:, None]).sum()
            score = spatial + self.prior_w * cand_logfreq[i]
            if score > best:
                best = score
                best_i = i
            if spatial > -0.5:
                break                             # candidate matches the taps almost exactly
        if best_i < 0 or not best - typed_score > self.margin:
            return typed, torch.tensor(0.0)
        return cands[best_i], best - typed_score


def model():
    torch.manual_seed(0)
    return AutocorrectScorer().eval()


def _touch(word, sharp=3.0, seed=0):
    g = torch.Generator().manual_seed(seed)
    logits = torch.randn(len(word), 26, generator=g)
    for k, c in enumerate(word):
        logits[k, ord(c) - 97] += sharp
    return torch.softmax(logits, dim=-1)


def _ids(words):
    return torch.tensor([[ord(c) - 97 for c in w] for w in words])


def example_inputs():
    return (_touch("thw", 3.0, 1), _ids(["the", "thy", "tho", "two"]), torch.tensor([-2.0, -9.0, -15.0, -4.0]))


def dynamic_shapes():
    L = torch.export.Dim("L", min=2, max=16)
    N = torch.export.Dim("N", min=2, max=64)
    return ({0: L}, {0: N, 1: L}, {0: N})


def verify_inputs():
    return [
        # taps match a dictionary word almost exactly -> early break, that word is returned
        (_touch("hello", 9.0, 2), _ids(["hello", "hells", "jello"]), torch.tensor([-3.0, -8.0, -10.0])),
        # all candidates rare -> every one skipped
        (_touch("qz", 3.0, 3), _ids(["qi", "za"]), torch.tensor([-14.0, -13.0])),
        # very ambiguous taps: no candidate beats the typed string
        (_touch("cst", 1.0, 4), _ids(["cat", "cut", "vat"]), torch.tensor([-3.0, -6.0, -9.0])),
        # 'fit' beats the typed string by more than the margin -> corrected
        (_touch("fot", 2.0, 5), _ids(["for", "fit", "dot"]), torch.tensor([-5.0, -6.0, -9.0])),
        # 'fit' beats the typed string, but by less than the margin -> kept as typed
        (_touch("fot", 2.0, 5), _ids(["for", "fit", "dot"]), torch.tensor([-4.5, -8.0, -9.0])),
    ]
