"""Query spell correction against a small lexicon of candidate words.

For every lexicon entry a banded Levenshtein distance to the query is computed with
the classic dynamic programme, abandoning a candidate as soon as the length gap or a
whole DP row exceeds the edit budget.  Candidates within budget are ranked by
distance, with ties broken by a learned character-embedding similarity.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_CHARS = 28   # 0 = padding, 1..26 letters, 27 apostrophe


class SpellCorrector(nn.Module):
    def __init__(self, dim=16, max_dist=2, blend=0.1):
        super().__init__()
        self.char_emb = nn.Embedding(N_CHARS, dim, padding_idx=0)
        self.max_dist = max_dist
        self.blend = blend

    def bounded_distance(self, a, b):
        n, m = a.shape[0], b.shape[0]
        if abs(n - m) > self.max_dist:
            return self.max_dist + 1
        prev = torch.arange(m + 1)
        for i in range(1, n + 1):
            row = [torch.tensor(i)]
            for j in range(1, m + 1):
                cost = (a[i - 1] != b[j - 1]).long()
                row.append(torch.minimum(torch.minimum(prev[j] + 1, row[j - 1] + 1), prev[j - 1] + cost))
            prev = torch.stack(row)
            if int(prev.min()) > self.max_dist:
                # every alignment already costs too much
                return self.max_dist + 1
        return int(prev[m])

    def forward(self, query, lexicon, lex_len):
        q = self.char_emb(query).mean(dim=0)
        dists = []
        sims = []
        for k in range(lexicon.shape[0]):
            L = int(lex_len[k])
            if L == 0:
                # empty slot in the candidate table
                dists.append(self.max_dist + 1)
                sims.append(torch.zeros(()))
                continue
            word = lexicon[k, :L]
            dists.append(self.bounded_distance(query, word))
            sims.append(F.cosine_similarity(q, self.char_emb(word).mean(dim=0), dim=0))
        dist = torch.tensor(dists)
        score = -dist.float() + self.blend * torch.stack(sims)
        score = torch.where(dist <= self.max_dist, score, torch.full_like(score, -100.0))
        return dist, score


def model():
    torch.manual_seed(0)
    return SpellCorrector().eval()


def _word(w):
    return [ord(c) - 96 if c != "'" else 27 for c in w]


def _case(query, words, width=12):
    lex = torch.zeros(len(words), width, dtype=torch.long)
    for k, w in enumerate(words):
        if w:
            lex[k, : len(w)] = torch.tensor(_word(w))
    return torch.tensor(_word(query)), lex, torch.tensor([len(w) for w in words])


def example_inputs():
    return _case("recieve", ["receive", "relieve", "deceive", "recipe"])


def dynamic_shapes():
    K = torch.export.Dim("candidates", min=2, max=64)
    return ({0: torch.export.Dim("query_len", min=2, max=16)}, {0: K}, {0: K})


def verify_inputs():
    return [
        _case("teh", ["the", "a", "", "ten", "tehran"]),          # 1-letter word, empty slot, length gap
        _case("acommodate", ["accommodate", "accumulate", "zyxwvutsrq"]),  # a row exceeds the budget early
        _case("dont", ["don't", "done", "dent"]),
        _case("ab", ["ba", "abcd"]),
    ]
