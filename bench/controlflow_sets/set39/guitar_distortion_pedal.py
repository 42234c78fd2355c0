"""Guitar distortion pedal model: noise gate, learned pre-emphasis FIR, drive stage that
hard-clips loud blocks and soft-clips (tanh) quieter ones, learned tone-stack FIR and
output level. Long buffers are processed in fixed-size blocks to bound latency.

Kind T. Constructs: 1 (if on tensor rms / peak), 2 (early return of silence from the gate;
variable reassigned in one branch), 5 (for over a block count derived from the dynamic
length, append + cat), 7 (per-block processing and clipping helpers with branches),
8 (branch on the dynamic buffer length), 9 (config: pedal mode, block size).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def soft_clip(x, drive):
    return torch.tanh(drive * x) / torch.tanh(torch.tensor(drive))


def clip_stage(x, clip_level, drive):
    peak = x.abs().max()
    if peak > clip_level:
        y = x.clamp(-clip_level, clip_level) / clip_level
    else:
        y = soft_clip(x, drive)
    return y


class DistortionPedal(nn.Module):
    def __init__(self, mode="overdrive", block=1024, gate_threshold=0.01, clip_level=0.6, drive=3.0):
        super().__init__()
        self.mode = mode
        self.block = block
        self.gate_threshold = gate_threshold
        self.clip_level = clip_level
        self.drive = drive
        self.pre = nn.Conv1d(1, 1, 9, padding=4, bias=False)
        self.tone = nn.Conv1d(1, 1, 15, padding=7, bias=False)
        self.level = nn.Parameter(torch.tensor(0.8))
        with torch.no_grad():
            # start both filters close to an identity with a little learned colouring
            self.pre.weight.mul_(0.1)
            self.pre.weight[0, 0, 4] += 1.0
            self.tone.weight.mul_(0.05)
            self.tone.weight[0, 0, 7] += 0.7

    def process_block(self, x):
        y = self.pre(x[None, None])[0, 0]
        y = clip_stage(y, self.clip_level, self.drive)
        y = y.sign() * y.abs().sqrt() if self.mode == "fuzz" else y   # config: fuzz flattens harder
        return self.level * self.tone(y[None, None])[0, 0]

    def forward(self, audio):
        # audio: (N,) mono samples in [-1, 1]
        rms = audio.pow(2).mean().sqrt()
        if rms < self.gate_threshold:
            return torch.zeros_like(audio)       # noise gate closed
        if audio.shape[0] > self.block:
            out = []
            n_blocks = (audio.shape[0] + self.block - 1) // self.block
            for b in range(n_blocks):
                out.append(self.process_block(audio[b * self.block:(b + 1) * self.block]))
            y = torch.cat(out)
        else:
            y = self.process_block(audio)
        return y


def model():
    torch.manual_seed(3906)
    return DistortionPedal().eval()


def _make_note(n, freq, amp, sr=16000.0, seed=0, decay=0.0):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n) / sr
    env = torch.exp(-decay * t)
    x = amp * env * (torch.sin(2 * torch.pi * freq * t) + 0.3 * torch.sin(2 * torch.pi * 2 * freq * t))
    return (x + 0.002 * torch.randn(n, generator=g),)


def example_inputs():
    # a quiet 512-sample pick (peak below clip level): single block, soft clip
    return _make_note(512, 196.0, 0.3, seed=1)


def dynamic_shapes():
    return ({0: torch.export.Dim("samples", min=64, max=8192)},)


def verify_inputs():
    ex = example_inputs()   # the example: path described in example_inputs()
    # hiss only (rms < gate threshold): gate returns silence
    hiss = (0.003 * torch.randn(800, generator=torch.Generator().manual_seed(2)),)
    # loud power chord over 3000 samples (> block): 3 blocks (last one partial), hard clip
    loud = _make_note(3000, 110.0, 0.9, seed=3)
    # decaying note over 2500 samples: loud first blocks hard-clip, quiet last block soft-clips
    decay = _make_note(2500, 247.0, 0.9, seed=4, decay=12.0)
    # exactly one block (1024, not > block) and the 64-sample minimum
    one_block = _make_note(1024, 330.0, 0.8, seed=5)
    tiny = _make_note(64, 440.0, 0.4, seed=6)
    return [ex, hiss, loud, decay, one_block, tiny]
