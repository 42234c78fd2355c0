"""Protein secondary-structure post-processing: per-residue H/E/C logits -> cleaned segments.

Kind X. Constructs: 1, 3, 4, 5, 6, 7.
"""
import torch
import torch.nn as nn
from torch.export import Dim

HELIX, STRAND, COIL = 0, 1, 2
MIN_LEN = {HELIX: 4, STRAND: 2}


def find_segments(labels):
    """Run-length segments [start, end, cls] with a while loop over a data-dependent cursor."""
    segs = []
    n = labels.shape[0]
    i = 0
    while i < n:
        j = i + 1
        while j < n and labels[j] == labels[i]:
            j += 1
        segs.append(torch.stack([torch.tensor(i), torch.tensor(j), labels[i]]))
        i = j
    return segs


def too_short(seg):
    cls = int(seg[2])
    if cls == COIL:
        return False
    return bool(seg[1] - seg[0] < MIN_LEN[cls])


def clean(labels):
    out = labels.clone()
    for seg in find_segments(labels):
        if not too_short(seg):
            continue
        out[int(seg[0]):int(seg[1])] = COIL
    # merge: a single coil residue between two helices is a kink, not a break
    segs = find_segments(out)
    for k in range(1, len(segs) - 1):
        s = segs[k]
        if s[2] != COIL or s[1] - s[0] > 1:
            continue
        if segs[k - 1][2] == HELIX and segs[k + 1][2] == HELIX:
            out[int(s[0])] = HELIX
    return out


class SSCleaner(nn.Module):
    def __init__(self):
        super().__init__()
        self.refine = nn.Conv1d(3, 3, 5, padding=2)

    def forward(self, logits):
        # logits: (L, 3) from the sequence model
        labels = logits.argmax(-1)
        cleaned = clean(labels)
        n_seg = torch.tensor(len(find_segments(cleaned)))
        conf = torch.softmax(logits + 0.1 * self.refine(logits.t().unsqueeze(0))[0].t(), -1)
        return cleaned, n_seg, conf


def model():
    torch.manual_seed(209)
    return SSCleaner().eval()


def _logits(ss):
    lab = {"H": HELIX, "E": STRAND, "C": COIL}
    idx = torch.tensor([lab[c] for c in ss])
    return torch.nn.functional.one_hot(idx, 3).float() * 3.0 - 1.0


def example_inputs():
    return (_logits("CCHHHHHHCHHHHHCCEECCHHCCEEEEC"),)


def dynamic_shapes():
    return ({0: Dim("residues", min=2, max=256)},)


def verify_inputs():
    return [
        example_inputs(),               # kink merged, short helix removed, strands kept
        (_logits("HHHHCCECHHHHHCCHHHHCE"),),  # single E removed, 2-coil gap not merged, trailing E removed
        (_logits("CC"),),               # only coil: one segment, merge loop runs 0 times
        (_logits("H" * 120 + "C" + "E" * 135),),  # long, coil between helix and strand is kept
    ]
