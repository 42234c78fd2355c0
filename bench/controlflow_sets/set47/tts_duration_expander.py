"""TTS acoustic front-end: phoneme encoder, per-phoneme duration expansion
(length regulator), end-of-sentence stop, chunked post-net for long inputs.

Constructs: 1, 2 (early return when nothing is voiced), 5 (for over the
dynamic phoneme count with int(.item()) durations, append + cat), 6 (break at
the end-of-sentence token, continue on zero-duration phonemes), 7 (helpers),
8 (chunked post-net when the phoneme sequence is long).
"""
import torch
import torch.nn as nn

EOS = 1
N_PHONES = 40


def expand(h, d):
    ramp = torch.linspace(0.0, 1.0, d).unsqueeze(1)
    return h.unsqueeze(0) * (1.0 - 0.2 * ramp)


def run_postnet(postnet, mel, chunk):
    outs = []
    for s in range(0, mel.shape[0], chunk):
        outs.append(postnet(mel[s:s + chunk]))
    return torch.cat(outs)


class DurationExpander(nn.Module):
    def __init__(self, hidden=16, n_mels=10):
        super().__init__()
        self.n_mels = n_mels
        self.emb = nn.Embedding(N_PHONES, hidden)
        self.enc = nn.Linear(hidden, hidden)
        self.proj = nn.Linear(hidden, n_mels)
        self.postnet = nn.Sequential(nn.Linear(n_mels, n_mels), nn.Tanh())
        base = torch.full((N_PHONES,), 3.0)
        base[2:10] = 6.0   # vowels are long
        base[0] = 0.0      # pad
        base[EOS] = 0.0
        base[39] = 0.0     # word-boundary marker: no frames
        self.register_buffer("base_dur", base)

    def forward(self, phones, pace):
        # phones: [P] ids, pace: [1] speaking-rate factor (1.0 normal)
        frames = []
        for p in range(phones.shape[0]):
            pid = phones[p]
            if pid == EOS:
                break
            d = int(torch.floor(self.base_dur[pid] * pace.squeeze()).item())
            if d == 0:
                continue
            h = torch.tanh(self.enc(self.emb(pid)))
            frames.append(expand(h, d))
        if len(frames) == 0:
            return torch.zeros(1, self.n_mels)
        mel = self.proj(torch.cat(frames))
        if phones.shape[0] > 24:
            return mel + run_postnet(self.postnet, mel, 32)
        return mel + self.postnet(mel)


def model():
    torch.manual_seed(15)
    return DurationExpander().eval()


def example_inputs():
    return (torch.tensor([12, 3, 20, 39, 15, 5, 22, 1, 30, 31]), torch.tensor([1.0]))


def dynamic_shapes():
    return ({0: torch.export.Dim("phones", min=2, max=48)}, None)


def verify_inputs():
    g = torch.Generator().manual_seed(5)
    long_seq = torch.randint(2, 40, (48,), generator=g)
    long_seq[-1] = EOS
    return [
        example_inputs(),                                     # word-boundary continue, EOS break, short postnet
        (torch.tensor([1, 5]), torch.tensor([1.0])),          # EOS first -> nothing voiced -> early return
        (torch.tensor([12, 4]), torch.tensor([0.5])),         # min size, slow, no break/continue
        (long_seq, torch.tensor([1.5])),                      # max size, chunked postnet, EOS at end
        (torch.arange(10, 40), torch.tensor([2.0])),          # 30 phones (chunked) ending with boundary marker, no EOS
    ]
