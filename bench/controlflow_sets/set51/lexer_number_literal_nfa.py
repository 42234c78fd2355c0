"""Lexer for a scripting language: maximal-munch NFA for numeric literals.

Pattern:  -?[0-9]+(\\.[0-9]+)?([eE][0-9]+)?   (exponent optional via config)
Characters arrive already mapped to classes (0 digit, 1 '.', 2 '-', 3 'e/E',
4 other).  The NFA state set is a bool vector; epsilon closure is iterated to
a fixed point.  Returns the longest accepted prefix length and an embedding
of the token for the parser's error-recovery model.
"""
import torch
import torch.nn as nn

DIGIT, DOT, MINUS, EXP, OTHER = range(5)
N_STATES = 9
ACCEPT = 8


class NumberLiteralNFA(nn.Module):
    def __init__(self, allow_exponent=True):
        super().__init__()
        self.allow_exponent = allow_exponent
        trans = torch.zeros(5, N_STATES, N_STATES)
        eps = torch.zeros(N_STATES, N_STATES)
        eps[0, 1] = 1
        trans[MINUS, 0, 1] = 1
        trans[DIGIT, 1, 2] = 1
        trans[DIGIT, 2, 2] = 1
        eps[2, 3] = 1
        trans[DOT, 2, 4] = 1
        trans[DIGIT, 4, 5] = 1
        trans[DIGIT, 5, 5] = 1
        eps[5, 3] = 1
        if allow_exponent:
            trans[EXP, 3, 6] = 1
            trans[DIGIT, 6, 7] = 1
            trans[DIGIT, 7, 7] = 1
            eps[7, 8] = 1
        eps[3, 8] = 1
        self.register_buffer("trans", trans)
        self.register_buffer("eps", eps)
        self.char_embed = nn.Embedding(5, 8)

    def eps_closure(self, active):
        frontier = active
        while frontier.any():
            reach = (frontier.float() @ self.eps) > 0
            frontier = reach & ~active
            active = active | reach
        return active

    def forward(self, char_classes):
        start = torch.zeros(N_STATES, dtype=torch.bool)
        start[0] = True
        active = self.eps_closure(start)
        match_len = 0
        for i in range(char_classes.shape[0]):
            step = self.trans[char_classes[i]]
            active = self.eps_closure((active.float() @ step) > 0)
            if not active.any():
                break  # dead state: no longer prefix can match
            if active[ACCEPT]:
                match_len = i + 1
        if match_len > 0:
            emb = torch.stack([self.char_embed(c) for c in char_classes[:match_len]]).mean(dim=0)
        else:
            emb = torch.zeros(8)
        return torch.tensor(match_len), emb


def model():
    torch.manual_seed(5118)
    return NumberLiteralNFA().eval()


_CODE = {"-": MINUS, ".": DOT, "e": EXP, "E": EXP}


def _chars(text):
    return torch.tensor([DIGIT if ch.isdigit() else _CODE.get(ch, OTHER) for ch in text], dtype=torch.long)


def example_inputs():
    return (_chars("-12.5e3+x"),)


def dynamic_shapes():
    return ({0: torch.export.Dim("chars", min=2, max=256)},)


def verify_inputs():
    return [
        # example: full literal with sign, fraction, exponent, then dead on '+'
        example_inputs(),
        # min: "x1" -> dead at the first char, no match (zero embedding)
        (_chars("x1"),),
        # "12." then end of input: accepted "12", trailing '.' keeps NFA alive, loop ends
        (_chars("12."),),
        # max: 256-digit literal, every prefix accepted, loop runs to the end
        (_chars("7" * 256),),
    ]
