"""Typesetting: find hyphenation points in a line of lowercase text.

The line is split into words at spaces. Words that are too short or have no
vowel (acronyms, "hmm") are left alone. Inside a word, breaks follow the
classic vowel/consonant rules: V-CV (break before a single consonant between
vowels) and VC-CV (split a two-consonant cluster), except that a small
character CNN recognises onset blends ("st", "tr", "pl" ...) and then keeps the
cluster together (V-CCV). No break leaves fewer than two letters on a side, and
at most `max_breaks` points are offered per word.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

SPACE = 26
VOWELS = "aeiouy"
ONSET_BLENDS = ["bl", "br", "ch", "cl", "cr", "dr", "fl", "fr", "gl", "gr", "ph", "pl", "pr", "sc", "sh", "sk",
                "sl", "sm", "sn", "sp", "st", "sw", "th", "tr", "wh"]


class BlendScorer(nn.Module):
    """Pair prior from the blend list plus a context correction from a char CNN."""

    def __init__(self, dim=8):
        super().__init__()
        self.embed = nn.Embedding(27, dim)
        self.conv = nn.Conv1d(dim, dim, 3, padding=1)
        self.out = nn.Linear(dim, 1)
        prior = torch.full((27, 27), -2.0)
        for pair in ONSET_BLENDS:
            prior[ord(pair[0]) - ord("a"), ord(pair[1]) - ord("a")] = 2.0
        self.register_buffer("pair_prior", prior)

    def forward(self, chars):
        h = self.embed(chars).t().unsqueeze(0)
        h = F.relu(self.conv(h))[0].t()
        context = torch.tanh(self.out(h).squeeze(-1))
        prev = torch.cat([torch.full((1,), SPACE, dtype=chars.dtype), chars[:-1]])
        return self.pair_prior[prev, chars] + context  # > 0: the pair ending here is an onset blend


class Hyphenator(nn.Module):
    def __init__(self, max_breaks=3):
        super().__init__()
        self.blend = BlendScorer()
        self.max_breaks = max_breaks
        is_vowel = torch.zeros(27, dtype=torch.bool)
        for ch in VOWELS:
            is_vowel[ord(ch) - ord("a")] = True
        self.register_buffer("is_vowel", is_vowel)

    def _words(self, chars):
        words, start = [], None
        for i in range(chars.shape[0]):
            is_space = chars[i] == SPACE
            if is_space and start is not None:
                words.append((start, i))
                start = None
            elif not is_space and start is None:
                start = i
        if start is not None:
            words.append((start, chars.shape[0]))
        return words

    def forward(self, chars):
        blend = self.blend(chars)
        min_word = 7 if chars.shape[0] > 64 else 5  # paragraph mode: only hyphenate long words

        breaks, syllables = [], []
        for start, end in self._words(chars):
            if end - start < min_word:
                continue
            vowel = [self.is_vowel[c] for c in chars[start:end]]
            if not any(vowel):
                continue
            found = 0
            for k in range(2, end - start - 1):
                if vowel[k - 1] and not vowel[k] and vowel[k + 1]:
                    breaks.append(start + k)  # V-CV
                    found += 1
                elif vowel[k - 2] and not vowel[k - 1] and not vowel[k] and vowel[k + 1]:
                    if blend[start + k] > 0 and k > 2:
                        breaks.append(start + k - 1)  # V-CCV: keep the blend together
                    else:
                        breaks.append(start + k)  # VC-CV
                    found += 1
                if found >= self.max_breaks:
                    break
            syllables.append(torch.tensor(found + 1))

        mask = torch.zeros(chars.shape[0], dtype=torch.long)
        mask[torch.tensor(breaks, dtype=torch.long)] = 1
        n_syllables = torch.stack(syllables).sum() if syllables else torch.tensor(0)
        return mask, n_syllables, torch.sigmoid(blend)


def model():
    torch.manual_seed(21)
    return Hyphenator().eval()


def _text(s):
    return (torch.tensor([SPACE if ch == " " else ord(ch) - ord("a") for ch in s], dtype=torch.long),)


def example_inputs():
    return _text("the harbour master ordered pilots")


def dynamic_shapes():
    n = torch.export.Dim("chars", min=8, max=128)
    return ({0: n},)


def verify_inputs():
    long_line = (
        "international shipping documentation requires careful verification "
        "of manifests before departure tomorrow morning at the eastern terminal"
    )
    return [
        example_inputs(),        # short word skipped (continue); V-CV, VC-CV and blend (V-CCV) breaks
        _text(long_line[:128]),  # max length: paragraph mode (7+ letters); long words hit the 3-break cap
        _text("hmm brrr"),       # min length 8: no word long enough -> no breaks, zero syllables
        _text("tsktsk  rhythm  banana "),  # no-vowel word skipped; double spaces; trailing space closes the last word
    ]
