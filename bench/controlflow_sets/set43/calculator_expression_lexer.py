"""Character-level lexer + encoder for a spreadsheet / calculator formula bar.

ASCII codes of a formula like "rate*12+ x2 - 7" are tokenised by a finite-state
machine (numbers, identifiers, operators, parentheses; whitespace separates);
an unknown character aborts with an error token. Tokens are embedded and run
through a GRU to predict the formula's result type (number / text / error).
Constructs: 1, 2, 3, 5, 6, 7
"""
import torch
import torch.nn as nn

NUM, IDENT, OP, LPAREN, RPAREN = 1, 2, 3, 4, 5
OPS = "+-*/^"


def char_class(c):
    if c >= 48 and c <= 57:
        return "digit"
    if (c >= 65 and c <= 90) or (c >= 97 and c <= 122) or c == 95:
        return "alpha"
    if c == 32 or c == 9:
        return "space"
    if c == 40 or c == 41:
        return "paren"
    for ch in OPS:
        if c == ord(ch):
            return "op"
    return "other"


class FormulaLexer(nn.Module):
    def __init__(self, max_number_digits=6):
        super().__init__()
        self.max_number_digits = max_number_digits
        self.type_embed = nn.Embedding(6, 8)
        self.gru = nn.GRU(9, 16, batch_first=True)
        self.head = nn.Linear(16, 3)

    def forward(self, chars):
        tokens = []
        state = None          # None, "number" or "ident"
        value = torch.zeros((), dtype=torch.long)
        digits = 0
        for i in range(chars.shape[0]):
            c = chars[i]
            kind = char_class(c)
            if kind == "other":
                # unknown character: the formula is an error, stop lexing
                err = torch.tensor([[0, i]])
                return err, torch.tensor([0.0, 0.0, 1.0])
            if state == "number" and kind == "digit":
                if digits < self.max_number_digits:
                    value = value * 10 + (c - 48)
                    digits += 1
                continue
            if state == "ident" and (kind == "alpha" or kind == "digit"):
                continue
            # current token (if any) ends here
            if state == "number":
                tokens.append(torch.stack([torch.tensor(NUM), value]))
            elif state == "ident":
                tokens.append(torch.stack([torch.tensor(IDENT), torch.tensor(0)]))
            state = None
            if kind == "space":
                continue
            if kind == "digit":
                state, value, digits = "number", c - 48, 1
            elif kind == "alpha":
                state = "ident"
            elif kind == "op":
                tokens.append(torch.stack([torch.tensor(OP), c]))
            else:
                tokens.append(torch.stack([torch.tensor(LPAREN if c == 40 else RPAREN), c]))
        if state == "number":
            tokens.append(torch.stack([torch.tensor(NUM), value]))
        elif state == "ident":
            tokens.append(torch.stack([torch.tensor(IDENT), torch.tensor(0)]))

        if len(tokens) == 0:
            return torch.zeros(0, 2, dtype=torch.long), torch.tensor([0.0, 1.0, 0.0])
        tok = torch.stack(tokens)
        emb = torch.cat([self.type_embed(tok[:, 0]), torch.log1p(tok[:, 1:].float())], dim=1)
        _, h = self.gru(emb[None])
        return tok, torch.softmax(self.head(h[0, 0]), dim=-1)


def model():
    torch.manual_seed(12)
    return FormulaLexer().eval()


def _chars(s):
    return torch.tensor([ord(ch) for ch in s])


def example_inputs():
    return (_chars("rate*12+ (x2 - 7)/ total_1"),)


def dynamic_shapes():
    return ({0: torch.export.Dim("n_chars", min=2, max=128)},)


def verify_inputs():
    return [
        example_inputs(),                  # idents (with digits), numbers, ops, parens, spaces; ends in ident
        (_chars("3.5*x"),),                # '.' is unknown -> error early return mid-number
        (_chars("   "),),                  # whitespace only -> no tokens
        (_chars("12345678 + 9"),),         # number longer than max digits (extra digits dropped); ends in number
        (_chars("(a)"),),                  # parens around an identifier
        (_chars("Ab\t9"),),                # tab separator, upper-case identifier
    ]
