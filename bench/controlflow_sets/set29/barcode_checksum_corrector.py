"""EAN-13 read correction for a retail checkout scanner.

The decoder reports 13 digits per scan plus, for every position, a confidence and a score
for each of the ten digits.  Scans with a valid check digit are accepted as is.  Otherwise
the uncertain positions are revisited one by one and alternative digits with a plausible
decoder score are tried until the checksum validates.  Status per scan: 0 valid, 1 repaired,
2 rejected (rescan needed).
"""
import torch
from torch import nn

WEIGHTS = torch.tensor([1, 3] * 6)


def checksum_ok(code):
    total = (code[:12] * WEIGHTS).sum()
    check = (10 - total % 10) % 10
    return check == code[12]


class BarcodeChecksumCorrector(nn.Module):
    def __init__(self, uncertain=0.6, plausible=0.1):
        super().__init__()
        self.uncertain = uncertain
        self.plausible = plausible

    def forward(self, digits, confidence, scores):
        # digits: [B, 13] int64, confidence: [B, 13], scores: [B, 13, 10] decoder digit scores
        fixed = []
        status = []
        for b in range(digits.shape[0]):
            code = digits[b]
            if checksum_ok(code):
                fixed.append(code)
                status.append(torch.tensor(0))
                continue
            candidates = torch.nonzero(confidence[b] < self.uncertain).flatten()
            repaired = code
            state = 2
            for k in range(candidates.shape[0]):
                pos = candidates[k]
                for digit in range(10):
                    if scores[b, pos, digit] < self.plausible:
                        continue
                    trial = code.clone()
                    trial[pos] = digit
                    if checksum_ok(trial):
                        repaired = trial
                        state = 1
                        break
                if state == 1:
                    break
            fixed.append(repaired)
            status.append(torch.tensor(state))
        return torch.stack(fixed), torch.stack(status)


def model():
    torch.manual_seed(0)
    return BarcodeChecksumCorrector().eval()


def _valid(prefix12):
    total = sum(d * w for d, w in zip(prefix12, [1, 3] * 6))
    return list(prefix12) + [(10 - total % 10) % 10]


def _scan(code, seed, errors=(), doubts=(), plausible=()):
    """errors: {pos: wrong_digit}; doubts: low-confidence positions; plausible: (pos, digit)
    pairs that get a high decoder score besides the read digit."""
    g = torch.Generator().manual_seed(seed)
    read = list(code)
    for pos, d in errors:
        read[pos] = d
    conf = 0.8 + 0.2 * torch.rand(13, generator=g)
    scores = 0.05 * torch.rand(13, 10, generator=g)
    for i, d in enumerate(read):
        scores[i, d] = 0.7 + 0.2 * torch.rand((), generator=g)
    for pos in doubts:
        conf[pos] = 0.2 + 0.3 * torch.rand((), generator=g)
    for pos, d in plausible:
        scores[pos, d] = 0.2 + 0.3 * torch.rand((), generator=g)
    return torch.tensor(read), conf, scores


def _batch(*scans):
    return tuple(torch.stack(t) for t in zip(*scans))


A = _valid([4, 0, 0, 6, 3, 8, 1, 3, 3, 3, 9, 3])
B = _valid([5, 9, 0, 1, 2, 3, 4, 1, 2, 3, 4, 5])
C = _valid([8, 7, 1, 1, 2, 2, 9, 9, 0, 4, 5, 6])
D = _valid([3, 0, 1, 4, 8, 0, 0, 2, 7, 7, 1, 0])


def example_inputs():
    return _batch(_scan(A, 0), _scan(B, 1, errors=[(4, 7)], doubts=[4], plausible=[(4, 2)]))


def dynamic_shapes():
    n = torch.export.Dim("scans", min=2, max=32)
    return ({0: n}, {0: n}, {0: n})


def verify_inputs():
    # C[2] is 1: a misread "7" at position 2 is repaired by trying digit 1 (several digits tried)
    # D[1] is 0: a misread at position 1 is repaired by the very first digit tried
    return [
        _batch(_scan(A, 1), _scan(B, 2)),                                         # all valid
        _batch(_scan(C, 3, errors=[(2, 7)], doubts=[2], plausible=[(2, 1)]),     # repaired
               _scan(D, 4, errors=[(1, 6)], doubts=[1], plausible=[(1, 0)])),    # repaired, first digit
        _batch(_scan(A, 5, errors=[(5, 2)]),                                      # no uncertain position
               _scan(B, 6, errors=[(7, 0)], doubts=[3, 7], plausible=[(7, 1)]),  # first doubt fails, second fixes
               _scan(C, 7, errors=[(6, 1)], doubts=[6])),                        # no plausible alternative
        example_inputs(),
    ]
