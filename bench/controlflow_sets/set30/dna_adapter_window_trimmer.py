"""Sequencing-read pre-processing: adapter clipping + sliding-window quality cut (kind T).

A read is given as one-hot bases (L, 4) (all-zero row = 'N') and Phred qualities (L,).
1. Adapter clipping: every position is compared with the adapter prefix (a k-mer); the
   read is clipped at the first exact match (for loop + break).
2. Sliding-window cut (Trimmomatic SLIDINGWINDOW): a 4-base window moves from the 5' end
   while its mean quality stays above the threshold; the read is cut where it drops.
3. Reads shorter than the minimum are discarded (early return); the kept part is embedded
   with a small CNN; reads with many N's or low mean quality get a QC-fail flag.

constructs: 1 (if on tensors), 2 (early return; variable assigned in one branch),
            3 (and / or / not with tensor predicates), 4 (while with tensor condition),
            5 (for over a range derived from the dynamic L), 6 (break on tensor condition)
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

ADAPTER = "AGATCGGA"   # Illumina TruSeq adapter prefix


class ReadPreprocessor(nn.Module):
    def __init__(self, window=4, min_qual=20.0, min_length=8, emb=16):
        super().__init__()
        idx = torch.tensor(["ACGT".index(c) for c in ADAPTER])
        self.register_buffer("adapter", F.one_hot(idx, 4).float())
        self.window = window
        self.min_qual = min_qual
        self.min_length = min_length
        self.conv1 = nn.Conv1d(5, emb, 3, padding=1)
        self.conv2 = nn.Conv1d(emb, emb, 3, padding=1)

    def forward(self, bases, quals):
        k = self.adapter.shape[0]
        end = bases.shape[0]
        for i in range(bases.shape[0] - k + 1):
            if (bases[i:i + k] * self.adapter).sum() == k:
                end = i
                break

        pos = 0
        while pos + self.window <= end and quals[pos:pos + self.window].mean() >= self.min_qual:
            pos += 1
        if pos + self.window <= end:
            end = pos                        # cut where the first failing window starts

        if end < self.min_length:
            return torch.zeros(self.conv2.out_channels), torch.tensor(end), torch.ones(1)

        kept_b, kept_q = bases[:end], quals[:end]
        x = torch.cat([kept_b, (kept_q / 40.0).unsqueeze(1)], dim=1).t().unsqueeze(0)
        x = F.relu(self.conv2(F.relu(self.conv1(x))))
        emb = x.mean(dim=2).squeeze(0)

        qc_fail = torch.zeros(1)
        if (kept_b.sum(dim=1) == 0).float().mean() > 0.1 or not kept_q.mean() >= 28.0:
            qc_fail = torch.ones(1)
        return emb, torch.tensor(end), qc_fail


def model():
    torch.manual_seed(303)
    return ReadPreprocessor().eval()


def _read(seq, quals):
    if isinstance(quals, (int, float)):
        quals = [quals] * len(seq)
    assert len(seq) == len(quals)
    b = torch.zeros(len(seq), 4)
    for i, c in enumerate(seq):
        if c in "ACGT":
            b[i, "ACGT".index(c)] = 1.0
    return b, torch.tensor(quals, dtype=torch.float32)


def example_inputs():
    # insert of 14 bases, then the adapter; good quality throughout
    return _read("CTTGACCTAGGCAT" + ADAPTER + "TTCA", 36)


def dynamic_shapes():
    L = torch.export.Dim("read_len", min=8, max=512)
    return ({0: L}, {0: L})


def verify_inputs():
    return [
        example_inputs(),                                     # adapter found at 14 (break after many iterations); window never fails
        _read("ACGTTGCAAGCTAGCT", 35),                       # no adapter (loop runs to the end), window slides to the end
        _read(ADAPTER + "CCGTAC", 38),                       # adapter at 0 (break on first iteration) -> too short, early return
        _read("ACGTTGCAAGCTAGCTTTGA",
              [36, 37, 38, 35, 36, 34, 33, 35, 36, 37, 30, 12, 9, 8, 6, 5, 4, 3, 2, 2]),   # window at 10 fails (mean 14.75): cut to 10
        _read("ACGTACGTAC", [10, 12, 9, 11, 14, 30, 30, 30, 30, 30]),   # first window already bad: while runs 0 times -> too short
        _read("ACNNTNNGTACGGA", 30),                         # many N's -> qc_fail through the 'or' first arm
        _read("ACGTACGTACGTAC", [22, 23, 24, 25, 26, 27, 21, 22, 23, 24, 25, 26, 27, 22]),   # mean quality < 28 -> qc_fail via 'not'
    ]
