"""Password strength meter for a sign-up form.

Input is the password as Unicode code points. Rule checks (length, character
classes, repeated characters, keyboard runs) decide the strength band; a small
character-level GRU gives a "guessability" score that is reported alongside.
Too-short passwords are rejected immediately.

Kind T. Constructs: 1 (if/elif/else on tensor predicates, .any()),
2 (early return in a branch; branches assign the same variables),
3 (and / or / not on tensor predicates), 8 (branch on the password length, a
dynamic dim), 9 (config flag `require_symbol`).
"""
import torch
import torch.nn as nn

WEAK, FAIR, GOOD, STRONG = 0, 1, 2, 3


class PasswordStrength(nn.Module):
    def __init__(self, vocab=128, emb=16, hidden=24, min_length=8, require_symbol=True):
        super().__init__()
        self.vocab = vocab
        self.min_length = min_length
        self.require_symbol = require_symbol
        self.embed = nn.Embedding(vocab, emb)
        self.gru = nn.GRU(emb, hidden, batch_first=True)
        self.score = nn.Linear(hidden, 1)

    def forward(self, codes):
        # codes: (L,) int64 Unicode code points
        if codes.shape[0] < self.min_length:
            return torch.tensor([WEAK]), torch.zeros(1)

        _, h = self.gru(self.embed(codes % self.vocab).unsqueeze(0))
        guessability = torch.sigmoid(self.score(h[-1])).reshape(1)

        lower = (codes >= 97) & (codes <= 122)
        upper = (codes >= 65) & (codes <= 90)
        digit = (codes >= 48) & (codes <= 57)
        has_lower, has_upper, has_digit = lower.any(), upper.any(), digit.any()
        has_symbol = (~(lower | upper | digit)).any()
        repeated = (codes[1:] == codes[:-1]).float().mean()
        keyboard_run = ((codes[1:] - codes[:-1]) == 1).float().mean()

        if not (has_digit or has_symbol):
            band = WEAK
        elif repeated > 0.25 or keyboard_run > 0.5:
            band = FAIR
        elif has_lower and has_upper and has_digit:
            band = STRONG if codes.shape[0] >= 12 else GOOD
        else:
            band = FAIR
        if self.require_symbol and not has_symbol:
            band = min(band, FAIR)
        return torch.tensor([band]), guessability


def model():
    torch.manual_seed(3406)
    return PasswordStrength().eval()


def _pw(s):
    return torch.tensor([ord(c) for c in s], dtype=torch.long)


def example_inputs():
    return (_pw("Tr0ub4dor&3horse"),)


def dynamic_shapes():
    L = torch.export.Dim("length", min=2, max=64)
    return ({0: L},)


def verify_inputs():
    return [
        example_inputs(),            # >= 12 chars, lower+upper+digit -> STRONG
        (_pw("abc"),),               # too short -> early return WEAK
        (_pw("sunshineday"),),       # letters only -> WEAK via `not (digit or symbol)`
        (_pw("aaaaaaa1!"),),         # many repeats -> FAIR
        (_pw("abcdefgh9"),),         # keyboard run (repeat check false, run check true) -> FAIR
        (_pw("Qx7m#z2k"),),          # 8 chars lower+upper+digit+symbol -> GOOD
        (_pw("Qx7mPz2kLw9t"),),      # would be STRONG but has no symbol -> capped to FAIR
        (_pw("blue#river9"),),       # digits+symbol, no upper -> FAIR (else)
        (_pw("пароль2024секрет"),),  # Cyrillic letters count as symbols here -> FAIR (else)
    ]
