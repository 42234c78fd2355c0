"""Byte-level UTF-8 validator/decoder in front of a text-quality scorer.

Raw bytes from a scraped page are decoded with the UTF-8 state machine:
the lead byte decides how many continuation bytes follow, a stray
continuation byte, an invalid lead byte, a truncated sequence at the end of
the buffer or a non-continuation byte inside a sequence each produce one
replacement (-1) and resynchronise on the next byte. The code-point classes
feed a small bag-of-classes scorer that rates how likely the buffer is
mojibake / binary junk.

Output: per-byte code point (-2 on continuation positions, -1 on errors),
the error count and the junk score.

Constructs: 1, 2, 3, 4, 5, 7
"""
import torch
import torch.nn as nn
from torch.export import Dim


class Utf8Validator(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(6, 8)
        self.head = nn.Linear(10, 1)
        self.register_buffer("class_edges", torch.tensor([-2, -1, 0x7F, 0x7FF, 0xFFFF]))

    def decode_at(self, data, pos, n):
        lead = data[pos]
        if lead < 0x80:
            return lead, 1
        if lead >= 0xC2 and lead < 0xE0:
            need, cp = 1, lead & 0x1F
        elif lead >= 0xE0 and lead < 0xF0:
            need, cp = 2, lead & 0x0F
        elif lead >= 0xF0 and lead < 0xF5:
            need, cp = 3, lead & 0x07
        else:
            return torch.tensor(-1), 1  # stray continuation or invalid lead byte
        if pos + need >= n:
            return torch.tensor(-1), 1  # sequence cut off by the end of the buffer
        for k in range(1, need + 1):
            c = data[pos + k]
            if (c & 0xC0) != 0x80:
                return torch.tensor(-1), 1
            cp = (cp << 6) | (c & 0x3F)
        return cp, need + 1

    def forward(self, data):
        n = data.shape[0]
        cps = torch.full((n,), -2, dtype=torch.long)
        errors = torch.zeros((), dtype=torch.long)
        pos = torch.tensor(0)
        while pos < n:
            cp, length = self.decode_at(data, pos, n)
            cps[pos] = cp
            if cp < 0:
                errors += 1
            pos = pos + length

        classes = torch.bucketize(cps, self.class_edges)
        starts = (cps > -2).float()
        bag = (self.emb(classes) * starts[:, None]).sum(0) / starts.sum()
        feats = torch.cat([bag, (errors.float() / n).view(1), (starts.sum() / n).view(1)])
        return cps, errors, torch.sigmoid(self.head(feats))


def model():
    torch.manual_seed(67)
    return Utf8Validator().eval()


def _bytes(b):
    return (torch.tensor(list(b), dtype=torch.long),)


def example_inputs():
    # valid 1-, 2-, 3- and 4-byte sequences
    return _bytes("Grüße, 東京 🙂!".encode("utf-8"))


def dynamic_shapes():
    return ({0: Dim("nbytes", min=2, max=512)},)


def verify_inputs():
    return [
        example_inputs(),  # every valid branch, continuation loop runs 1, 2 and 3 times
        # stray continuation 0x80, bad 2nd byte (C3 28), invalid lead FF and F8, bad 3rd byte (E2 82 41),
        # truncated sequence at the end (F0 9F)
        _bytes(bytes([0x41, 0x80, 0xC3, 0x28, 0xFF, 0x42, 0xE2, 0x82, 0x41, 0xF8, 0x43, 0xF0, 0x9F])),
        _bytes(b"ok"),  # pure ASCII, two iterations
        _bytes("é".encode("utf-8")),  # one 2-byte character: the while loop runs once
    ]
