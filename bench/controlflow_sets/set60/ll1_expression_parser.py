"""LL(1) recursive-descent parser for arithmetic token streams that evaluates the expression
and builds a recursive (tree-structured) embedding of the parse for a code model.

Grammar:  expr := term (('+'|'-') term)* ; term := factor (('*'|'/') factor)* ;
          factor := NUM | '(' expr ')' | '-' factor"""
import torch
import torch.nn as nn
from torch.export import Dim

NUM, PLUS, MINUS, STAR, SLASH, LPAR, RPAR, END = range(8)


class ExprParser(nn.Module):
    def __init__(self, dim=8, max_depth=4):
        super().__init__()
        self.max_depth = max_depth
        self.leaf = nn.Linear(1, dim)
        self.additive = nn.Linear(2 * dim, dim)
        self.multiplicative = nn.Linear(2 * dim, dim)
        self.negate = nn.Linear(dim, dim)

    def combine(self, layer, a, b):
        return torch.tanh(layer(torch.cat([a, b])))

    def parse_expr(self, tok, val, pos, depth):
        r = self.parse_term(tok, val, pos, depth)
        if r is None:
            return None
        v, e, pos = r
        while tok[pos] == PLUS or tok[pos] == MINUS:
            op = tok[pos]
            r = self.parse_term(tok, val, pos + 1, depth)
            if r is None:
                return None
            v = v + r[0] if op == PLUS else v - r[0]
            e, pos = self.combine(self.additive, e, r[1]), r[2]
        return v, e, pos

    def parse_term(self, tok, val, pos, depth):
        r = self.parse_factor(tok, val, pos, depth)
        if r is None:
            return None
        v, e, pos = r
        while tok[pos] == STAR or tok[pos] == SLASH:
            op = tok[pos]
            r = self.parse_factor(tok, val, pos + 1, depth)
            if r is None:
                return None
            if op == SLASH and r[0].abs() < 1e-6:
                return None  # division by zero is a compile-time error here
            v = v * r[0] if op == STAR else v / r[0]
            e, pos = self.combine(self.multiplicative, e, r[1]), r[2]
        return v, e, pos

    def parse_factor(self, tok, val, pos, depth):
        t = tok[pos]
        if t == NUM:
            return val[pos], torch.tanh(self.leaf(val[pos:pos + 1])), pos + 1
        if t == MINUS:
            r = self.parse_factor(tok, val, pos + 1, depth)
            if r is None:
                return None
            return -r[0], torch.tanh(self.negate(r[1])), r[2]
        if t == LPAR and depth < self.max_depth:
            r = self.parse_expr(tok, val, pos + 1, depth + 1)
            if r is None or tok[r[2]] != RPAR:
                return None
            return r[0], r[1], r[2] + 1
        return None  # unexpected token or nesting too deep

    def forward(self, tokens, values):
        # tokens (L,) int64 token kinds ending with END; values (L,) literal values at NUM
        r = self.parse_expr(tokens, values, 0, 0)
        if r is None or tokens[r[2]] != END:
            return torch.zeros(()), torch.zeros(self.leaf.out_features), torch.tensor(0)
        return r[0], r[1], torch.tensor(1)


def model():
    torch.manual_seed(6011)
    return ExprParser().eval()


def _lex(src):
    kinds = {"+": PLUS, "-": MINUS, "*": STAR, "/": SLASH, "(": LPAR, ")": RPAR}
    tok, val = [], []
    for s in src.split():
        tok.append(kinds.get(s, NUM))
        val.append(0.0 if s in kinds else float(s))
    return torch.tensor(tok + [END]), torch.tensor(val + [0.0])


def example_inputs():
    return _lex("3 + 4 * ( 2 - 1 ) / 5")


def dynamic_shapes():
    n = Dim("tokens", min=2, max=40)
    return ({0: n}, {0: n})


def verify_inputs():
    long_src = "( 1 + 2 ) * - ( 3 - 4 / 8 ) + ( ( 5 * 6 ) - 7 ) / 2 - - 1 * ( 9 + 1 ) - 3 / 6"
    return [
        _lex("3 + 4 * ( 2 - 1 ) / 5"),   # example: precedence, parentheses, division
        _lex("7"),                       # min length: a single literal
        _lex(long_src),                  # max length (40): unary minus, nesting, mixed ops
        _lex("( 1 + 2"),                 # missing ')' -> error
        _lex("( ( ( ( ( 1 ) ) ) ) )"),   # nesting deeper than max_depth -> error
        _lex("4 / ( 2 - 2 )"),           # division by zero -> error
        _lex("1 2"),                     # trailing literal -> not at END -> error
        _lex("2 * *"),                   # bad factor after '*' -> error in term loop
        _lex("1 + )"),                   # bad term after '+' -> error in expr loop
        _lex("- )"),                     # bad operand of unary minus
        _lex("*"),                       # expression cannot start with '*'
    ]
