"""Light suffix stemmer for search-engine query terms (Porter-flavoured).

Words arrive as rows of ASCII codes, zero padded.  Step 1 normalises plurals
(first matching rule wins), step 2 strips stacked derivational suffixes
("carefulness" -> "careful" -> "care") as long as a real stem is left
(Porter measure > 0), step 3 drops a final "e" from long stems.  A small
character model scores how confident the index should be in each stem.
Returns (stems, stem lengths, plural flags, confidence).
"""
import torch
import torch.nn as nn


def _codes(text):
    return torch.tensor([ord(ch) for ch in text], dtype=torch.long)


class StemConfidence(nn.Module):
    def __init__(self):
        super().__init__()
        self.char_emb = nn.Embedding(128, 8)
        self.head = nn.Linear(9, 1)

    def forward(self, stems, lengths):
        mask = (stems != 0).float().unsqueeze(-1)
        pooled = (self.char_emb(stems) * mask).sum(dim=1) / mask.sum(dim=1).clamp(min=1.0)
        x = torch.cat([pooled, lengths.float().unsqueeze(1) / 10.0], dim=1)
        return torch.sigmoid(self.head(x)).squeeze(-1)


class QueryStemmer(nn.Module):
    def __init__(self):
        super().__init__()
        self.confidence = StemConfidence()
        self.plural_rules = [(_codes(s), _codes(r)) for s, r in
                             (("sses", "ss"), ("ies", "i"), ("ss", "ss"), ("s", ""))]
        self.derivational = [_codes(s) for s in ("ization", "ness", "ment", "ful", "ly")]
        vowels = torch.zeros(128, dtype=torch.bool)
        vowels[_codes("aeiou")] = True
        self.register_buffer("vowel_lut", vowels)
        self.min_stem = 3

    def _ends_with(self, word, length, suffix):
        k = suffix.shape[0]
        if length < k:
            return False
        return bool((word[length - k:length] == suffix).all())

    def _measure(self, word, length):
        """Porter's m: number of vowel -> consonant transitions."""
        m, prev_vowel = 0, False
        for i in range(length):
            is_vowel = bool(self.vowel_lut[word[i]])
            if prev_vowel and not is_vowel:
                m += 1
            prev_vowel = is_vowel
        return m

    def _truncate(self, word, length):
        keep = torch.arange(word.shape[0]) < length
        return torch.where(keep, word, torch.zeros_like(word))

    def _stem(self, word, length):
        plural = 1
        for suffix, repl in self.plural_rules:
            if self._ends_with(word, length, suffix):
                start = length - suffix.shape[0]
                word = word.clone()
                word[start:start + repl.shape[0]] = repl
                length = start + repl.shape[0]
                word = self._truncate(word, length)
                break
        else:
            plural = 0

        stripped = True
        while stripped and length > self.min_stem + 1:
            stripped = False
            for suffix in self.derivational:
                k = suffix.shape[0]
                if self._ends_with(word, length, suffix) and self._measure(word, length - k) > 0:
                    length -= k
                    word = self._truncate(word, length)
                    stripped = True
                    break

        if length > 4 and word[length - 1] == ord("e") and self._measure(word, length - 1) > 1:
            length -= 1
            word = self._truncate(word, length)
        return word, length, plural

    def forward(self, words):
        lengths = [int((row != 0).sum().item()) for row in words]
        stems, out_len, plurals = [], [], []
        for r in range(words.shape[0]):
            word, length = words[r], lengths[r]
            if length <= self.min_stem:
                stems.append(word)          # "bus", "is": too short to touch
                out_len.append(length)
                plurals.append(0)
                continue
            stem, new_len, plural = self._stem(word, length)
            stems.append(stem)
            out_len.append(new_len)
            plurals.append(plural)
        stems = torch.stack(stems)
        out_len = torch.tensor(out_len, dtype=torch.long)
        return stems, out_len, torch.tensor(plurals, dtype=torch.long), self.confidence(stems, out_len)


def model():
    torch.manual_seed(5319)
    return QueryStemmer().eval()


def example_inputs():
    return verify_inputs()[0]


def dynamic_shapes():
    terms = torch.export.Dim("terms", min=2, max=64)
    chars = torch.export.Dim("chars", min=4, max=24)
    return ({0: terms, 1: chars},)


def verify_inputs():
    def batch(terms, width):
        rows = torch.zeros(len(terms), width, dtype=torch.long)
        for i, t in enumerate(terms):
            rows[i, :len(t)] = torch.tensor([ord(ch) for ch in t])
        return (rows,)

    vocab = ["caresses", "ponies", "cats", "carefulness", "hopefully", "bus", "statement",
             "generate", "shyly", "organization", "kindly", "press", "ment", "trees",
             "internationalization", "boldness", "is", "walking", "payments", "useful"]
    return [
        # example: 14 terms, width 12.  sses/ies/ss/s plural rules and a
        # word with no plural (for/else); stacked suffixes stripped until
        # length 4 (while operand 2 false) or nothing matches (operand 1
        # false); "shyly": suffix matches but measure 0; "kindly" is shorter
        # than "ization" (length < k); "generate" loses its final e,
        # "statement" -> "state" keeps it; "bus"/"is" too short (continue)
        batch(["caresses", "ponies", "cats", "carefulness", "hopefully", "bus", "statement",
               "generate", "shyly", "organization", "kindly", "press", "is", "useful"], 12),
        # 2 terms x 4 chars (min): "cats" -> "cat", "ment" (4 letters, no step 2)
        batch(["cats", "ment"], 4),
        # 64 terms x 24 chars (max): the vocabulary cycled
        batch([vocab[i % len(vocab)] for i in range(64)], 24),
    ]
