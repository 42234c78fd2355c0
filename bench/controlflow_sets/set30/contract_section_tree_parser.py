"""Contract outline parser: numbered headings -> section tree -> section types (legal NLP) (kind X).

Input: token features (L, 12) of a contract.  Features 0-2 are cue scores from a
heading-pattern lexicon ("1.", "1.1", "(a)") for heading levels 1-3, feature 3 marks the
signature block, the rest are contextual features.  A heading classifier (linear +
cues) labels every token as body / level-1 / level-2 / level-3 heading.  A stack-based
parser walks the tokens (Python list used as a stack, popped in a while loop whose
condition compares tensor levels) to find each heading's parent; the signature block
ends the scan.  Each section runs until the next heading of the same or a higher level
(nested search loop with break), is pooled by a span-encoder submodule (attention for
long sections, mean for short ones) and classified.  A document without headings
returns early.

constructs: 1 (if on tensor predicates), 2 (early return), 3 (and with tensor predicate),
            4 (while with tensor condition over a Python stack), 5 (for over dynamic L,
            Python lists, torch.stack), 6 (continue / break on tensor conditions),
            7 (submodule with its own size branch, helper with loop + return), 8 (branch on the
            length of a data-dependent section slice)
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SectionEncoder(nn.Module):
    def __init__(self, d, hidden, attn_above=6):
        super().__init__()
        self.proj = nn.Linear(d, hidden)
        self.score = nn.Linear(hidden, 1)
        self.attn_above = attn_above

    def forward(self, tokens):
        h = torch.tanh(self.proj(tokens))
        if tokens.shape[0] > self.attn_above:
            w = torch.softmax(self.score(h).squeeze(1), dim=0)
            return (w.unsqueeze(1) * h).sum(dim=0)
        return h.mean(dim=0)


def section_end(i, starts, levels, doc_end):
    for j in range(i + 1, len(starts)):
        if levels[j] <= levels[i]:
            return starts[j]
    return doc_end


class ContractOutlineParser(nn.Module):
    def __init__(self, d=12, hidden=24, n_types=6, cue_weight=4.0):
        super().__init__()
        self.heading = nn.Linear(d, 4)
        self.encoder = SectionEncoder(d, hidden)
        self.type_head = nn.Linear(hidden, n_types)
        self.cue_weight = cue_weight

    def forward(self, tokens):
        cues = torch.cat([torch.full_like(tokens[:, :1], 0.5), tokens[:, :3]], dim=1)
        level_of = (0.5 * self.heading(tokens) + self.cue_weight * cues).argmax(dim=1)

        starts, levels, parents = [], [], []
        stack = []
        doc_end = tokens.shape[0]
        for t in range(tokens.shape[0]):
            if tokens[t, 3] > 0.5:
                doc_end = t
                break
            lvl = level_of[t]
            if lvl == 0:
                continue
            while stack and levels[stack[-1]] >= lvl:
                stack.pop()
            parents.append(stack[-1] if stack else -1)
            stack.append(len(starts))
            starts.append(t)
            levels.append(lvl)

        if not starts:
            return (torch.full((1, self.type_head.out_features), -1.0),
                    torch.tensor([[-1, -1, -1]]))

        feats, rows = [], []
        for i, s in enumerate(starts):
            e = section_end(i, starts, levels, doc_end)
            feats.append(self.encoder(tokens[s:e]))
            rows.append(torch.tensor([s, e, parents[i]]))
        types = F.softmax(self.type_head(torch.stack(feats)), dim=1)
        return types, torch.stack(rows)


def model():
    torch.manual_seed(313)
    return ContractOutlineParser().eval()


def _doc(layout, seed):
    """layout: one char per token: '.' body text, '1'/'2'/'3' heading of that level,
    'S' signature block."""
    g = torch.Generator().manual_seed(seed)
    L = len(layout)
    x = 0.3 * torch.randn(L, 12, generator=g)
    x[:, :4] = 0.0
    for t, c in enumerate(layout):
        if c in "123":
            x[t, int(c) - 1] = 1.0
        elif c == "S":
            x[t, 3] = 1.0
    return (x,)


def example_inputs():
    return _doc("..1....2...3..3...2....1.....2..3........", 0)


def dynamic_shapes():
    return ({0: torch.export.Dim("tokens", min=2, max=4096)},)


def verify_inputs():
    return [
        example_inputs(),              # nested 1>2>3 headings; while pops 0, 1 and 2 entries; no signature; long (attention) + short sections
        _doc("..........", 1),          # no headings: early return
        _doc("2..2..S1..", 2),          # signature at t=6: break; heading after it ignored; sibling level-2 sections
        _doc("1.1.1.", 3),              # flat level-1 list: stack popped every time, each section ends at the next
        _doc("3..2..1..", 4),           # decreasing levels 3,2,1: each heading pops the previous one; all parents -1
        _doc("12", 5),                  # L=2: child heading right after parent, sections run to document end
    ]
