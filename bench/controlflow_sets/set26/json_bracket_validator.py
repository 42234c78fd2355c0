"""Structure check + classifier for tokenised JSON-like tool-call output of an LLM.

The token stream is scanned once with a bracket stack (brackets inside string
literals are ignored).  A mismatched closer aborts immediately; otherwise every token
gets its nesting depth, and a small classifier over token + depth embeddings scores
the call.  The output says whether the structure is valid, the maximum depth and the
classifier logits.
"""
import torch
import torch.nn as nn

LBRACE, RBRACE, LBRACK, RBRACK, QUOTE, COMMA, COLON = 1, 2, 3, 4, 5, 6, 7
VOCAB = 64
MAX_DEPTH = 8


class ToolCallValidator(nn.Module):
    def __init__(self, dim=24, n_classes=3):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, dim)
        self.depth = nn.Embedding(MAX_DEPTH, dim)
        self.head = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, n_classes))
        self.n_classes = n_classes

    def forward(self, tokens):
        stack = []
        depths = []
        depth = 0
        max_depth = 0
        in_string = False
        for i in range(tokens.shape[0]):
            t = int(tokens[i])
            if t == QUOTE:
                in_string = not in_string
                depths.append(depth)
                continue
            if in_string:
                depths.append(depth)
                continue
            if t == LBRACE or t == LBRACK:
                stack.append(RBRACE if t == LBRACE else RBRACK)
                depth += 1
                if depth > max_depth:
                    max_depth = depth
            elif t == RBRACE or t == RBRACK:
                if len(stack) == 0 or stack[-1] != t:
                    # mismatched or unopened closer: reject right away
                    return torch.tensor(False), torch.tensor([i]), torch.zeros(self.n_classes)
                stack.pop()
                depth -= 1
            depths.append(depth)
        valid = len(stack) == 0 and not in_string
        d = torch.clamp(torch.tensor(depths), max=MAX_DEPTH - 1)
        h = (self.tok(tokens) + self.depth(d)).mean(dim=0)
        return torch.tensor(valid), torch.tensor([max_depth]), self.head(h)


def model():
    torch.manual_seed(0)
    return ToolCallValidator().eval()


_SYM = {"{": LBRACE, "}": RBRACE, "[": LBRACK, "]": RBRACK, '"': QUOTE, ",": COMMA, ":": COLON}


def _enc(g, text):
    """symbols map to their ids, letters to random word-piece ids (>= 8)."""
    ids = [_SYM[c] if c in _SYM else int(torch.randint(8, VOCAB, (1,), generator=g)) for c in text if c != " "]
    return (torch.tensor(ids),)


def example_inputs():
    g = torch.Generator().manual_seed(1)
    return _enc(g, '{"a":[b,c],"d":{"e":f}}')


def dynamic_shapes():
    return ({0: torch.export.Dim("tokens", min=2, max=2048)},)


def verify_inputs():
    g = torch.Generator().manual_seed(2)
    return [
        _enc(g, '{"k":[1,2,[3]],"t":[4],"s":"}]{"}'),  # valid, brackets inside a string are ignored
        _enc(g, '{"a":[b,c}'),                 # wrong closer
        _enc(g, ']ab'),                         # closer with nothing open
        _enc(g, '{"a":[b'),                     # never closed
        _enc(g, 'ab'),                          # no structure at all
        _enc(g, '[{"x":"y'),                    # unterminated string
    ]
