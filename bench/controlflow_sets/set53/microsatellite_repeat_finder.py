"""Microsatellite (short tandem repeat) finder for a sequencing read.

Bases are coded A=0 C=1 G=2 T=3 N=4.  For motif lengths 1..6 the read is
scanned left to right; a primitive motif that repeats at least the
per-length minimum number of times is reported as (start, motif length,
copies) and scored by a small learned polymorphism model.  Positions inside
an already reported repeat and motifs with an N are skipped; the scan stops
after max_reports repeats.
Returns (repeats [M, 3] int64, polymorphism scores [M]).
"""
import torch
import torch.nn as nn


class PolymorphismScorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.base_emb = nn.Embedding(5, 8)
        self.head = nn.Linear(10, 1)

    def forward(self, motif, copies, k):
        comp = self.base_emb(motif).mean(dim=0)
        x = torch.cat([comp, torch.tensor([copies / 10.0, k / 6.0])])
        return torch.sigmoid(self.head(x)).squeeze()


class MicrosatelliteFinder(nn.Module):
    def __init__(self):
        super().__init__()
        self.scorer = PolymorphismScorer()
        self.min_copies = {1: 8, 2: 5, 3: 4, 4: 3, 5: 3, 6: 3}
        self.max_reports = 12

    def _is_primitive(self, motif):
        # "ATAT" is just (AT)x2: only report the shortest repeating unit
        k = motif.shape[0]
        for d in range(1, k):
            if k % d == 0 and bool((motif == motif[:d].repeat(k // d)).all()):
                return False
        return True

    def _copies_at(self, seq, i, k):
        n = seq.shape[0]
        motif = seq[i:i + k]
        copies, j = 1, i + k
        while j + k <= n and (seq[j:j + k] == motif).all():
            copies += 1
            j += k
        return copies

    def forward(self, seq):
        n = seq.shape[0]
        found, scores = [], []
        covered = torch.zeros(n, dtype=torch.bool)
        done = False
        for k in range(1, 7):
            i = 0
            while i + 2 * k <= n:
                motif = seq[i:i + k]
                if (motif == 4).any() or covered[i]:
                    i += 1
                    continue
                if not self._is_primitive(motif):
                    i += 1
                    continue
                copies = self._copies_at(seq, i, k)
                if copies >= self.min_copies[k]:
                    found.append(torch.tensor([i, k, copies]))
                    scores.append(self.scorer(motif, copies, k))
                    covered[i:i + k * copies] = True
                    if len(found) >= self.max_reports:
                        done = True
                        break
                    i += k * copies
                else:
                    i += 1
            if done:
                break
        if not found:
            return torch.zeros(0, 3, dtype=torch.long), torch.zeros(0)
        return torch.stack(found), torch.stack(scores)


def model():
    torch.manual_seed(5315)
    return MicrosatelliteFinder().eval()


def example_inputs():
    return verify_inputs()[0]


def dynamic_shapes():
    bases = torch.export.Dim("bases", min=8, max=400)
    return ({0: bases},)


def verify_inputs():
    code = {"A": 0, "C": 1, "G": 2, "T": 3, "N": 4}

    def read(parts, seed):
        g = torch.Generator().manual_seed(seed)
        out = []
        for p in parts:
            if isinstance(p, int):
                out += torch.randint(0, 4, (p,), generator=g).tolist()
            else:
                out += [code[c] for c in p]
        return (torch.tensor(out, dtype=torch.long),)

    return [
        # example, 142 bp: (A)x10, (CA)x6, (AGC)x5, (TTAG)x4, an N run, a
        # short (GT)x3 below the minimum, random flanks, and a (TG)x5 that
        # runs into the end of the read (copy-extension stops on length)
        read([12, "AAAAAAAAAA", "G", 10, "CACACACACACA", "T", 15, "AGCAGCAGCAGCAGC", 9,
              "TTAGTTAGTTAG", "G", 8, "NNNN", 9, "GTGTGT", 7, "TGTGTGTGTG"], seed=1),
        # 8 bp (min): no repeat at all -> empty result
        read(["ACGTTGCA"], seed=2),
        # 400 bp (max): many repeats -> stops after 12 reports while still
        # scanning homopolymers (break out of both loops)
        read([5] + ["ACACACACAC" + "T", 4, "GGGGGGGGG", 3, "ATCATCATCATC", 4,
                    "TTTTTTTTTT" + "C", 6] * 6 + [35], seed=3),
    ]
