"""Online log-template mining (Drain-style) with a learned rarity scorer.

Kind X.  Constructs: 1, 2, 3, 5, 6, 7, 9.
Tokenised log lines (0 = padding) are clustered one by one: each line is
compared with the templates seen so far (same token count and at least half
of the tokens equal or wildcard); the first match absorbs the line and turns
differing positions into wildcards (-1), otherwise a new template is opened
unless the template table is full.  Token embeddings then give every line an
anomaly score from its template and how common that template is.
"""
import torch
import torch.nn as nn
from torch.export import Dim

LINES = Dim("lines", min=2, max=64)
TOKENS = Dim("tokens", min=4, max=32)
PAD, WILDCARD, VOCAB = 0, -1, 1024


def token_counts(tmpl, line):
    valid = line != PAD
    same = ((tmpl == line) | (tmpl == WILDCARD)) & valid
    return same.sum(), valid.sum()


def matches(tmpl, line):
    same, n = token_counts(tmpl, line)
    n_tmpl = (tmpl != PAD).sum()
    return bool(n_tmpl == n and 2 * same >= n)


def merge(tmpl, line):
    keep = (tmpl == line) | (line == PAD)
    return torch.where(keep, tmpl, torch.full_like(tmpl, WILDCARD))


class LogTemplateClusterer(nn.Module):
    def __init__(self, dim=16, max_templates=8, use_frequency=True):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, dim)
        self.use_frequency = use_frequency
        self.score = nn.Sequential(nn.Linear(2 * dim + int(use_frequency), 32), nn.ReLU(), nn.Linear(32, 1))
        self.max_templates = max_templates

    def embed(self, tokens):
        valid = (tokens > 0).float().unsqueeze(-1)
        e = self.tok(tokens.clamp(min=0)) * valid
        return e.sum(dim=-2) / valid.sum(dim=-2).clamp(min=1.0)

    def forward(self, lines):
        templates, counts, assign = [], [], []
        for i in range(lines.shape[0]):
            line = lines[i]
            if (line == PAD).all():
                assign.append(torch.tensor(-1))          # blank line
                continue
            match = -1
            for k in range(len(templates)):
                if matches(templates[k], line):
                    match = k
                    break
            if match >= 0:
                templates[match] = merge(templates[match], line)
                counts[match] = counts[match] + 1.0
                assign.append(torch.tensor(match))
            elif len(templates) < self.max_templates:
                templates.append(line.clone())
                counts.append(torch.ones(()))
                assign.append(torch.tensor(len(templates) - 1))
            else:
                assign.append(torch.tensor(-2))          # table full: unclustered

        assign = torch.stack(assign)
        if not templates:
            return torch.zeros(0, lines.shape[1], dtype=lines.dtype), torch.zeros(0), assign, torch.zeros(lines.shape[0])

        table = torch.stack(templates)
        counts = torch.stack(counts)
        line_vec = self.embed(lines)
        tmpl_vec = self.embed(table)[assign.clamp(min=0)]
        feats = [line_vec, tmpl_vec]
        if self.use_frequency:
            feats.append(torch.log(counts[assign.clamp(min=0)]).unsqueeze(-1))
        scores = torch.sigmoid(self.score(torch.cat(feats, dim=-1))).squeeze(-1)
        scores = torch.where(assign == -1, torch.zeros_like(scores), scores)     # blank lines
        scores = torch.where(assign == -2, torch.ones_like(scores), scores)      # unclustered
        return table, counts, assign, scores


def model():
    torch.manual_seed(63012)
    return LogTemplateClusterer().eval()


def _line(words, length):
    ids = torch.zeros(length, dtype=torch.long)
    ids[: len(words)] = torch.tensor(words, dtype=torch.long)
    return ids


def _logs(rows, length):
    return (torch.stack([_line(r, length) for r in rows]),)


# "user <id> login from <ip> ok" / "disk <dev> usage <pct>" / "GET <path> 200 <ms> ms"
LOGIN = lambda uid, ip: [11, uid, 12, 13, ip, 14]
DISK = lambda dev, pct: [21, dev, 22, pct]
HTTP = lambda path, ms: [31, path, 32, ms, 33]


def example_inputs():
    rows = [LOGIN(101, 201), DISK(301, 401), LOGIN(102, 202), [], HTTP(501, 601),
            LOGIN(103, 201), DISK(302, 402), HTTP(502, 602), [41, 42, 43], HTTP(503, 601)]
    return _logs(rows, 8)


def dynamic_shapes():
    return ({0: LINES, 1: TOKENS},)


def verify_inputs():
    many = [[60 + 4 * k, 61 + 4 * k, 62 + 4 * k] for k in range(10)]
    return [
        example_inputs(),                             # blank line (continue), new templates, matches (break),
                                                      # and lines that scan every template without a match
        _logs([[], []], 4),                           # only blank lines: no template -> early return
        _logs([DISK(301, 401), DISK(302, 402)], 4),   # minimum shapes: second line merges into the first
        _logs(many + [many[2]], 6),                   # 10 distinct templates > table of 8: overflow path,
                                                      # a later repeat still matches template 2
        _logs([[7, 8, 9, 10, 11], [7, 8, 9, 10], [7, 8, 9, 10, 12]], 12),  # token-count mismatch, then a match
    ]
