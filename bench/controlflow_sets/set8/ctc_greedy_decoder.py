"""Small conv ASR acoustic model plus the usual CTC greedy post-processing loop (collapse repeats, drop blanks)."""

import torch
from torch import nn

N_MELS, VOCAB, BLANK = 20, 6, 0


class AcousticModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(N_MELS, 32, 3, padding=1),
            nn.BatchNorm1d(32),
            nn.ReLU(),
            nn.Conv1d(32, 32, 3, padding=1),
            nn.ReLU(),
        )
        self.head = nn.Linear(32, VOCAB)

    def forward(self, feats):  # (B, T, F)
        h = self.conv(feats.transpose(1, 2)).transpose(1, 2)
        return self.head(h).log_softmax(-1)


def ctc_greedy(log_probs):
    """Returns per-token counts and the decoded length for a single utterance (T, V)."""
    best = log_probs.argmax(-1)
    counts = torch.zeros(VOCAB)
    n_emitted = torch.zeros(())
    prev = torch.tensor(BLANK)
    for t in range(best.shape[0]):
        tok = best[t]
        if tok == BLANK or tok == prev:
            prev = tok
            continue
        counts = counts + nn.functional.one_hot(tok, VOCAB).float()
        n_emitted = n_emitted + 1
        prev = tok
    return counts, n_emitted


class ASR(nn.Module):
    def __init__(self):
        super().__init__()
        self.am = AcousticModel()

    def forward(self, feats):
        log_probs = self.am(feats)
        counts, length = ctc_greedy(log_probs[0])
        return log_probs, counts, length


def model():
    torch.manual_seed(0)
    net = ASR()
    with torch.no_grad():
        nn.init.normal_(net.am.head.weight, std=1.0)
    return net.eval()


def example_inputs():
    torch.manual_seed(1)
    return (torch.randn(1, 50, N_MELS),)


def dynamic_shapes():
    return ({1: torch.export.Dim("frames", min=1, max=400)},)


def verify_inputs():
    g = torch.Generator().manual_seed(7)
    return [
        (torch.randn(1, 1, N_MELS, generator=g),),  # one frame
        (torch.randn(1, 3, N_MELS, generator=g),),
        (torch.randn(1, 400, N_MELS, generator=g) * 2.0,),  # longest utterance
        (torch.randn(1, 120, N_MELS, generator=g),),
    ]
