"""PCR primer QC: melting temperature, GC content, 3' clamp and hairpin screen.

Short oligos use the Wallace rule; longer ones use SantaLucia (1998) unified
nearest-neighbour thermodynamics with a salt correction on the entropy. A small
convolutional scorer flags self-dimer risk for the report, and the checker
returns the first QC rule the primer fails (or OK).
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

OK, TM_OUT, GC_OUT, NO_CLAMP, HAIRPIN = 0, 1, 2, 3, 4
BASES = "ACGT"
A, C, G, T = 0, 1, 2, 3

# nearest-neighbour stacks 5'->3', rows = first base, cols = second base (A, C, G, T)
DH = [[-7.9, -8.4, -7.8, -7.2], [-8.5, -8.0, -10.6, -7.8], [-8.2, -9.8, -8.0, -8.4], [-7.2, -8.2, -8.5, -7.9]]
DS = [[-22.2, -22.4, -21.0, -20.4], [-22.7, -19.9, -27.2, -21.0], [-22.2, -24.4, -19.9, -22.4], [-21.3, -22.2, -22.7, -22.2]]
R = 1.987  # cal / (K mol)


class DimerScorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(4, 8, kernel_size=5, padding=2)
        self.head = nn.Conv1d(8, 1, kernel_size=1)

    def forward(self, onehot):
        h = F.relu(self.conv(onehot.t().unsqueeze(0)))
        return torch.sigmoid(self.head(h)).amax()


class PrimerChecker(nn.Module):
    def __init__(self, tm_min=52.0, tm_max=65.0, wallace_below=14):
        super().__init__()
        self.dimer = DimerScorer()
        self.tm_min = tm_min
        self.tm_max = tm_max
        self.wallace_below = wallace_below
        self.register_buffer("dh", torch.tensor(DH))
        self.register_buffer("ds", torch.tensor(DS))

    def _terminal_init(self, base):
        if base == C or base == G:
            return 0.1, -2.8
        return 2.3, 4.1

    def _nearest_neighbour_tm(self, idx, na_molar, conc_molar):
        dh, ds = [], []
        for i in range(idx.shape[0] - 1):
            dh.append(self.dh[idx[i], idx[i + 1]])
            ds.append(self.ds[idx[i], idx[i + 1]])
        dh_total = torch.stack(dh).sum()
        ds_total = torch.stack(ds).sum()
        for end in (idx[0], idx[-1]):
            h0, s0 = self._terminal_init(end)
            dh_total = dh_total + h0
            ds_total = ds_total + s0
        ds_total = ds_total + 0.368 * (idx.shape[0] - 1) * torch.log(na_molar)
        return 1000.0 * dh_total / (ds_total + R * torch.log(conc_molar / 4.0)) - 273.15

    def _three_prime_hairpin(self, idx):
        tail = idx[-4:]
        rc_tail = (3 - tail).flip(0)  # A<->T, C<->G
        found = False
        for s in range(idx.shape[0] - 8):
            if torch.equal(idx[s:s + 4], rc_tail):
                found = True
                break
        return found

    def forward(self, primer, conditions):
        idx = primer.argmax(dim=-1)
        n_gc = ((idx == C) | (idx == G)).sum()
        gc = n_gc.float() / idx.shape[0]
        na_molar = conditions[0] / 1000.0
        conc_molar = conditions[1] * 1e-9

        if primer.shape[0] < self.wallace_below:
            tm = 2.0 * (idx.shape[0] - n_gc).float() + 4.0 * n_gc.float()
        else:
            tm = self._nearest_neighbour_tm(idx, na_molar, conc_molar)

        clamp_gc = ((idx[-5:] == C) | (idx[-5:] == G)).sum()
        clamp_ok = clamp_gc >= 1 and clamp_gc <= 3
        hairpin = self._three_prime_hairpin(idx)

        if not (self.tm_min <= tm <= self.tm_max):
            status = TM_OUT
        elif gc < 0.4 or gc > 0.6:
            status = GC_OUT
        elif not clamp_ok:
            status = NO_CLAMP
        elif hairpin:
            status = HAIRPIN
        else:
            status = OK
        return tm, gc, torch.tensor(status), self.dimer(primer)


def model():
    torch.manual_seed(11)
    return PrimerChecker().eval()


def _oligo(seq, na_mm=50.0, conc_nm=250.0):
    idx = torch.tensor([BASES.index(b) for b in seq])
    return F.one_hot(idx, 4).float(), torch.tensor([na_mm, conc_nm])


def example_inputs():
    return _oligo("AGCGTACCTGAAGTCCATGC")


def dynamic_shapes():
    n = torch.export.Dim("primer_len", min=10, max=40)
    return ({0: n}, None)


def verify_inputs():
    return [
        example_inputs(),                               # 20-mer, NN Tm in range, 55% GC, clamp ok -> OK
        _oligo("ACGTGCATGC"),                           # min length 10 -> Wallace, Tm 32 -> Tm out of range
        _oligo("ATGCAGTCGAGGCTTACGATCCATGACTGCTAGCATGACG"),  # max length 40, Tm too high -> Tm out
        _oligo("GACCTGGACGGCGAGCATCC"),                 # Tm in range, GC 70% -> GC out (gc > 0.6 operand)
        _oligo("CAGTTAGCATTACGATTCAAGCTATCAG"),         # Tm in range, GC 39% -> GC out (gc < 0.4 operand)
        _oligo("GCAGTCGACTGAGCATCTAATT"),               # no G/C in the last five bases -> no clamp
        _oligo("TGACAGCTAGCATCGTAGGCCG"),               # five G/C in the last five bases -> no clamp
        _oligo("GCATGACTCCAGTGATAGCATG"),               # 3' tail CATG has its reverse complement early -> hairpin
    ]
