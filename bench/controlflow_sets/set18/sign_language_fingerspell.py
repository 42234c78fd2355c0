"""Fingerspelling recogniser: per-frame hand-keypoint classifier, emits a letter whenever a confident
new letter appears, stops at the 'end-of-word' gesture. Output length depends on the data."""
import torch
from torch import nn

KP = 42          # 21 keypoints x (x, y)
LETTERS = 27     # 26 letters + end-of-word (index 26)
END = 26


class Fingerspell(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(KP, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
        self.cls = nn.Linear(64, LETTERS)
        self.conf_thresh = 0.5

    def forward(self, frames):
        # frames: (T, KP), single stream
        logits = self.cls(self.enc(frames)) + frames[:, :LETTERS] * 8.0
        probs = torch.softmax(logits, dim=-1)
        letters = []
        confs = []
        prev = torch.tensor(-1)
        for t in range(frames.shape[0]):
            p, idx = probs[t].max(dim=0)
            if p < self.conf_thresh:
                continue
            if idx == END:
                break
            if idx == prev:
                continue
            letters.append(idx)
            confs.append(p)
            prev = idx
        if len(letters) == 0:
            return torch.zeros(0, dtype=torch.int64), torch.zeros(0)
        return torch.stack(letters), torch.stack(confs)


def model():
    torch.manual_seed(0)
    return Fingerspell().eval()


def _seq(spec, T):
    # spec: list of letter ids (or None for an unconfident frame)
    x = torch.zeros(T, KP)
    for t, s in enumerate(spec):
        if s is not None:
            x[t, s] = 1.5
    return x


def example_inputs():
    return (_seq([2, 2, None, 0, 19, END, 4], 9),)


def dynamic_shapes():
    return ({0: torch.export.Dim("frames", min=2, max=128)},)


def verify_inputs():
    return [
        (_seq([7, 8, 8, 8, None, 3], 12),),     # no END: runs to the end
        (_seq([END, 1, 2], 5),),               # END first: empty word
        (_seq([None, None], 3),),              # nothing confident: empty
        (_seq([5, None, 5, 11, 14, 14, 24], 20),),
    ]
