"""Gene-finding helper: scan a DNA read on both strands and all three reading
frames for open reading frames (ATG ... stop), embed each ORF by its codons and
score it with a small coding-potential head. Returns one row per ORF:
(score, length in codons, 16-d embedding).

Kind X; constructs 1, 2, 3, 5, 6, 7, 9."""
import torch
import torch.nn as nn
from torch.export import Dim

# nucleotides A=0, C=1, G=2, T=3; codon index = 16 * n1 + 4 * n2 + n3
START = 14                       # ATG
STOP_TAA, STOP_TAG, STOP_TGA = 48, 50, 56


class OrfFinder(nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(411)
        self.codon_emb = nn.Embedding(64, 16)
        self.scorer = nn.Sequential(nn.Linear(17, 16), nn.ReLU(), nn.Linear(16, 1))
        self.min_codons = 3
        self.max_orfs = 4          # per reading frame
        self.both_strands = True

    def codons(self, seq, frame):
        n = (seq.shape[0] - frame) // 3
        trip = seq[frame:frame + 3 * n].reshape(n, 3)
        return trip[:, 0] * 16 + trip[:, 1] * 4 + trip[:, 2]

    def scan_frame(self, cod):
        orfs = []
        start = -1
        for i in range(cod.shape[0]):
            c = cod[i]
            if start < 0:
                if c == START:
                    start = i
                continue
            if c == STOP_TAA or c == STOP_TAG or c == STOP_TGA:
                if i - start >= self.min_codons:
                    orfs.append(cod[start:i])
                start = -1
                if len(orfs) >= self.max_orfs:
                    break
        return orfs

    def forward(self, seq):
        # seq: [L] int64 nucleotide codes
        strands = [seq]
        if self.both_strands:  # pragma: no branch
            strands.append((3 - seq).flip(0))     # reverse complement
        rows = []
        for strand in strands:
            for frame in range(3):
                for orf in self.scan_frame(self.codons(strand, frame)):
                    emb = self.codon_emb(orf).mean(0)
                    length = torch.full((1,), float(orf.shape[0]))
                    rows.append(torch.cat([length / 10, emb]))
        if len(rows) == 0:
            return torch.zeros(0, 18)
        feats = torch.stack(rows)
        score = self.scorer(feats)
        return torch.cat([score, feats[:, :1] * 10, feats[:, 1:]], dim=1)


def model():
    return OrfFinder().eval()


def _dna(s):
    return torch.tensor(["ACGT".index(ch) for ch in s], dtype=torch.int64)


def _revcomp(s):
    return s[::-1].translate(str.maketrans("ACGT", "TGCA"))


def _random_dna(n, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, 4, (n,), generator=g)


def example_inputs():
    return (_dna("CCATGGCTGCAAAGTTTGGATAACCGATGCCC"),)


def dynamic_shapes():
    return ({0: Dim("bases", min=6, max=96)},)


def verify_inputs():
    return [
        example_inputs(),                                   # one ORF (ATG GCT GCA AAG TTT GGA TAA), one run-off ATG
        (_dna("CCCCCC"),),                                  # min length, no ATG anywhere -> empty result
        (_dna("ATGAAATAGCCC"),),                            # ATG + 1 codon + stop: too short, no ORF
        (_dna("ATG" + "GCA" * 3 + "TAA" + "ATG" + "CCG" * 4 + "TGA" + "ATG" + "AAA" * 3 + "TAG"
              + "ATG" + "GGC" * 5 + "TAA" + "ATG" + "GCT" * 3 + "TGA" + "CC"),),
                                                            # five ORFs in frame 0 -> break after max_orfs
        (_random_dna(96, 7),),                              # max length random read, both strands
        (_dna(_revcomp("CCATGGCCGCAAATTGACC")),),           # ORF only on the reverse strand
    ]
