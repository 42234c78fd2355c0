"""Biomedical text mining: link acronyms to their long forms (Schwartz-Hearst style).

Token ids come from a tokenizer where 1 and 2 are '(' and ')', ids 100-125
are single capital letters (acronyms are spelled letter by letter) and word
ids start at 200; a word's first letter is (id - 200) % 26 and ids 200-209
are stop words ("of", "the", "and", ...).  For every parenthesised run of
letters the long form is searched leftwards: letters are matched right to
left against the first letters of the preceding words within a window of
min(|A| + 5, 2|A|) words, skipping stop words; hitting punctuation or
another acronym aborts the search.  Each linked long form is embedded
(mean of word embeddings, projected) for the downstream entity linker.
"""
import torch
import torch.nn as nn

LPAREN, RPAREN = 1, 2
LETTER_A, LETTER_Z = 100, 125
WORD0, STOP_END = 200, 210


class AcronymLinker(nn.Module):
    def __init__(self, vocab=600, dim=16, out=8):
        super().__init__()
        self.min_letters = 2
        self.max_letters = 8
        self.embed = nn.Embedding(vocab, dim)
        self.proj = nn.Linear(dim, out)
        self.out_dim = out

    def is_letter(self, tok):
        return bool((tok >= LETTER_A) & (tok <= LETTER_Z))

    def read_acronym(self, tokens, i):
        """Letters between tokens[i] == '(' and the closing ')': (letters, close) or (None, j)."""
        letters = []
        j = i + 1
        while j < tokens.shape[0] and tokens[j] != RPAREN:
            if not self.is_letter(tokens[j]) or len(letters) == self.max_letters:
                return None, j  # a parenthetical remark, not an acronym
            letters.append(int(tokens[j]) - LETTER_A)
            j += 1
        if j == tokens.shape[0] or len(letters) < self.min_letters:
            return None, j
        return letters, j

    def find_long_form(self, tokens, i, letters):
        window = min(len(letters) + 5, 2 * len(letters))
        k = len(letters) - 1
        p = i - 1
        used = 0
        while k >= 0 and p >= 0 and used < window:
            tok = tokens[p]
            if tok < WORD0:
                return -1  # punctuation or another acronym in between
            used += 1
            if tok < STOP_END:
                p -= 1
                continue  # stop words never carry a letter
            if (int(tok) - WORD0) % 26 == letters[k]:
                k -= 1
                if k < 0:
                    break
            p -= 1
        return p if k < 0 else -1

    def forward(self, tokens):
        n = tokens.shape[0]
        spans, embs = [], []
        i = 0
        while i < n:
            if tokens[i] != LPAREN:
                i += 1
                continue
            letters, close = self.read_acronym(tokens, i)
            if letters is None:
                i = close + 1
                continue
            start = self.find_long_form(tokens, i, letters)
            if start >= 0:
                spans.append(torch.tensor([start, i, close]))
                vec = self.embed(tokens[start:i]).mean(0)
                embs.append(self.proj(vec))
            i = close + 1
        if not spans:
            return torch.full((1, 3), -1, dtype=torch.long), torch.zeros(1, self.out_dim)
        return torch.stack(spans), torch.stack(embs)


def model():
    torch.manual_seed(5919)
    return AcronymLinker().eval()


def make_word(letter, k=0):
    """Word id whose first letter is `letter` (k picks another word with that letter)."""
    return WORD0 + 26 * (1 + k) + (ord(letter) - ord("a"))


def make_acronym(text):
    return [LPAREN] + [LETTER_A + ord(c) - ord("A") for c in text] + [RPAREN]


STOP = [200, 203, 207]  # "of", "the", "and"


def make_text(pieces, pad_to=None):
    toks = [t for piece in pieces for t in piece]
    if pad_to is not None:
        toks = toks + [make_word("x", 3 + k % 5) for k in range(pad_to - len(toks))]
    return (torch.tensor(toks, dtype=torch.long),)


def example_inputs():
    w, a = make_word, make_acronym
    # "patients with chronic obstructive pulmonary disease (COPD) and the
    #  tumor necrosis factor (TNF) level ..."
    return make_text([[w("p"), w("w")], [w("c"), w("o"), w("p"), w("d", 1)], a("COPD"),
                      [STOP[2], STOP[1]], [w("t"), w("n"), w("f")], a("TNF"), [w("l")]])


def dynamic_shapes():
    return ({0: torch.export.Dim("tokens", min=6, max=96)},)


def verify_inputs():
    w, a = make_word, make_acronym
    # example: two long forms linked (COPD, TNF)
    ex = example_inputs()
    # 6 tokens: "see (Fig 2)"-like remark -> parenthesis holds a word, nothing linked
    remark = make_text([[w("s")], [LPAREN, w("f"), w("t"), RPAREN], [w("q")]])
    # 96 tokens: stop word inside the long form ("bureau of labor statistics (BLS)"),
    # an acronym with no matching words (window runs out), one right after another
    # acronym (search hits the ')' and aborts), a one-letter "(A)", a 9-letter run,
    # and an unclosed '(' at the end
    long = make_text([[w("b"), STOP[0], w("l"), w("s")], a("BLS"), [w("q"), w("r")],
                      [w("z", 1), w("y", 1), w("k"), w("m"), w("j"), w("h"), w("g")], a("XYZ"),
                      a("QRS"), [w("a")], a("A"), [w("n"), w("m")], a("ABCDEFGHI"),
                      [w("u")] * 30, [w("v"), w("w")], a("VW"), [w("o")] * 10, [LPAREN],
                      [w("e")]], pad_to=96)
    # acronym near the start of the text: runs out of words (p < 0); then a proper one
    start = make_text([[w("r")], a("MRI"), [w("s")], [w("m"), w("r"), w("i")], a("MRI")])
    return [ex, remark, long, start]
