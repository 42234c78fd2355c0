"""In-silico tryptic digest for proteomics: scan a protein sequence for trypsin cleavage
sites (after K/R, not before P), enumerate peptides with up to two missed cleavages,
keep those inside the mass spectrometer's mass window, and score each peptide's
detectability with a small network over its amino-acid composition.

Kind X. Constructs: 1 (if on .item() residue codes and on tensor masses), 2 (early return
when nothing is detectable), 3 (and / or on residue predicates), 5 (for over the dynamic
sequence length; nested for over cleavage sites and missed cleavages; Python lists ->
stack), 6 (continue on non-sites / light peptides, break on too-heavy peptides and past
the last site), 7 (mass / composition / scoring helpers calling each other), 9 (static
missed-cleavage count and residue table).
"""
import torch
import torch.nn as nn

AMINO = "ACDEFGHIKLMNPQRSTVWY"
MONO_MASS = [71.03711, 103.00919, 115.02694, 129.04259, 147.06841, 57.02146, 137.05891, 113.08406,
             128.09496, 113.08406, 131.04049, 114.04293, 97.05276, 128.05858, 156.10111, 87.03203,
             101.04768, 99.06841, 186.07931, 163.06333]
WATER = 18.01056
K, R, P = AMINO.index("K"), AMINO.index("R"), AMINO.index("P")


class TrypticDigest(nn.Module):
    def __init__(self, max_missed=2, min_mass=500.0, max_mass=3000.0):
        super().__init__()
        self.max_missed = max_missed
        self.min_mass = min_mass
        self.max_mass = max_mass
        self.register_buffer("mass_table", torch.tensor(MONO_MASS))
        self.detect = nn.Sequential(nn.Linear(22, 32), nn.ReLU(), nn.Linear(32, 1))

    def peptide_mass(self, seg):
        return self.mass_table[seg].sum() + WATER

    def composition(self, seg):
        counts = torch.bincount(seg, minlength=20).float()
        return counts / seg.shape[0]

    def detectability(self, seg, mass):
        comp = self.composition(seg)
        x = torch.cat([comp, torch.tensor([seg.shape[0] / 30.0]), (mass / 1000.0)[None]])
        return torch.sigmoid(self.detect(x))[0]

    def forward(self, seq):
        # seq: (L,) int64 residue codes 0..19 (order of AMINO)
        n = seq.shape[0]
        sites = [0]
        for i in range(n - 1):
            aa = int(seq[i])
            if aa != K and aa != R:
                continue
            if int(seq[i + 1]) == P:
                continue                     # trypsin does not cut before proline
            sites.append(i + 1)
        sites.append(n)
        masses, scores, spans = [], [], []
        for a in range(len(sites) - 1):
            for missed in range(self.max_missed + 1):
                b = a + 1 + missed
                if b >= len(sites):
                    break
                seg = seq[sites[a]:sites[b]]
                mass = self.peptide_mass(seg)
                if mass > self.max_mass:
                    break                    # longer peptides from this start only get heavier
                if mass < self.min_mass:
                    continue
                masses.append(mass)
                scores.append(self.detectability(seg, mass))
                spans.append(torch.tensor([sites[a], sites[b]]))
        if len(masses) == 0:
            return torch.zeros(1), torch.zeros(1), torch.zeros(1, 2, dtype=torch.long)
        return torch.stack(masses), torch.stack(scores), torch.stack(spans)


def model():
    torch.manual_seed(3914)
    return TrypticDigest().eval()


def _make_seq(text):
    return (torch.tensor([AMINO.index(c) for c in text], dtype=torch.long),)


def example_inputs():
    # fragment of bovine serum albumin (180 residues): many K/R sites incl. "KP" and "KK",
    # peptides below, inside and above the mass window
    return _make_seq("DTHKSEIAHRFKDLGEEHFKGLVLIAFSQYLQQCPFDEHVKLVNELTEFAKTCVADESHAGCEKSLHTLFGDELCKVASLRETYGDMADCCEKQEPERNECFLSHKDDSPDLPKLKPDPNTLCDEFKADEKKFWGKYLYEIARRHPYFYAPELLYYANKYNGVFQECCQAEDKGACLLPKIETMREKVLASSARQRLRCASIQKFGERALKAWSVARLSQKFPKAEFVEVTKLVTDLTKVHKECCHGDLLECADDRADLAKYICDNQDTISSKLKECCDKPLLEKSHCIAEVEKDAIPENLPPLTADFAEDKDVCKNYQEAKDAFLGSFLYEYSRRHPEYAVSVLLRLAKEYEATLEECCAKDDPHACYSTVFDKLKHLVDEPQNLIKQNCDQFEKLGEYGFQNALIVRYTRKVPQVSTPTLVEVSRSLGKVGTRCCTKPESERMPCTEDYLSLILNRLCVLHEKTPVSEKVTKCCTESLVNRRPCFSALTPDETYVPKAFDEKLFTFHADICTLPDTEKQIKKQTALVELLKHKPKATEEQLKTVMENFVAFVDKCCAADDKEACFAVEGPKLVVSTQTALA"[:180])


def dynamic_shapes():
    return ({0: torch.export.Dim("residues", min=4, max=400)},)


def verify_inputs():
    ex = example_inputs()   # the example: path described in example_inputs()
    # insulin B chain: a "KP"-free short protein; light peptides skipped, one heavy tail
    insulin = _make_seq("FVNQHLCGSHLVEALYLVCGERGFFYTPKT")
    # short peptide with no cleavage site and below the mass window: nothing kept, early return
    tiny = _make_seq("GASG")
    # long stretch without K/R (transmembrane-like): the single peptide is too heavy -> break
    heavy = _make_seq("MLLAVLLLGAVFSVAGLWLFIAVAGLMTLIGCVWFYSLAAIVLAMLGLPSWALVTAFGLLIVSAGW")
    # K/R followed by P (no cut), runs of consecutive sites (KK, RR), ends in K
    kp = _make_seq("AEKPLLDRRPGSTEWKKLNMSAEGTVHKPEEFRDLGAAWEKYRPVSLMTEK")
    return [ex, insulin, tiny, heavy, kp]
