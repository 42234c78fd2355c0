"""On-device WordPiece tokenizer (greedy longest-match-first) over byte/char codes.

Input: int64 character codes of one utterance (dynamic length), 32 = space.
The vocabulary is stored as polynomial hashes of its pieces ('##' continuation pieces
hash with a different seed). A tensor-conditioned `while` walks the text, an inner
`while` shrinks the candidate span until a piece matches (`break`), spaces are skipped
with `continue`, and words with no match become [UNK]. Output: token ids (data-dependent
length) framed by [CLS] ... [SEP].
"""

import torch
import torch.nn as nn
from torch.export import Dim

VOCAB = [
    "[PAD]",
    "[UNK]",
    "[CLS]",
    "[SEP]",
    "play",
    "the",
    "music",
    "turn",
    "on",
    "off",
    "light",
    "##s",
    "##ing",
    "##ed",
    "set",
    "alarm",
    "for",
    "seven",
    "un",
    "##lock",
    "##able",
    "call",
    "mom",
    "wake",
    "me",
    "up",
    "at",
    "##er",
    "to",
    "a",
    "b",
    "c",
    "##a",
    "##e",
    "##o",
    "##t",
]


def piece_hash(codes, pows, cont):
    h = (codes * pows[: codes.shape[0]]).sum() % 1000003
    return h + 1000003 if cont else h


class WordPiece(nn.Module):
    def __init__(self, max_piece=8):
        super().__init__()
        self.max_piece = max_piece
        pows = torch.tensor([pow(131, i, 1000003) for i in range(max_piece)], dtype=torch.long)
        self.register_buffer("pows", pows)
        hashes = []
        for w in VOCAB:
            cont = w.startswith("##")
            codes = torch.tensor([ord(ch) for ch in (w[2:] if cont else w)], dtype=torch.long)
            hashes.append(piece_hash(codes[:max_piece], pows, cont))
        self.register_buffer("vocab_hash", torch.stack(hashes))
        self.unk, self.cls, self.sep = 1, 2, 3

    def forward(self, chars):
        n = chars.shape[0]
        out = [torch.tensor(self.cls)]
        start = torch.zeros((), dtype=torch.long)
        word_start = True
        while start < n:
            if chars[start] == 32:
                start = start + 1
                word_start = True
                continue
            end = torch.clamp(start + self.max_piece, max=n)
            found = -1
            while end > start:
                seg = chars[int(start) : int(end)]
                if (seg == 32).any():  # a piece never crosses a space
                    end = end - 1
                    continue
                match = self.vocab_hash == piece_hash(seg, self.pows, not word_start)
                if match.any():
                    found = match.int().argmax()
                    break
                end = end - 1
            if found == -1:
                out.append(torch.tensor(self.unk))
                while start < n and chars[start] != 32:  # skip the rest of the word
                    start = start + 1
            else:
                out.append(found)
                start = end
                word_start = False
        out.append(torch.tensor(self.sep))
        return torch.stack(out)


def model():
    torch.manual_seed(0)
    return WordPiece().eval()


def _text(s):
    return (torch.tensor([ord(ch) for ch in s], dtype=torch.long),)


def example_inputs():
    return _text("turn on the lights")


def dynamic_shapes():
    return {"chars": {0: Dim("n_chars", min=2, max=256)}}


def verify_inputs():
    return [
        _text("  "),  # only spaces: no pieces
        _text("unlockable alarms xyz playing"),  # continuation pieces + UNK word
        _text("wake me up at seven"),
        _text("qq"),  # single unknown word
    ]
