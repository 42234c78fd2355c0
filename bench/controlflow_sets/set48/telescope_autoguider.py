"""Telescope autoguider: per guide-camera frame, find the guide star, compare it with the lock
position and issue RA/Dec corrections (with minimum-move and Dec backlash handling).

Frames without a star above the SNR limit are skipped; three lost frames in a row abort guiding.
Large sensors are 2x2 binned first.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def find_star(frame, snr_limit):
    bg = frame.median()
    noise = (frame - bg).abs().median() * 1.4826 + 1e-3
    peak = frame.max()
    if (peak - bg) / noise < snr_limit:
        return None
    w = torch.relu(frame - bg - 3 * noise)
    ys = torch.arange(frame.shape[0], dtype=frame.dtype)
    xs = torch.arange(frame.shape[1], dtype=frame.dtype)
    total = w.sum()
    return torch.stack([(w.sum(1) * ys).sum() / total, (w.sum(0) * xs).sum() / total])


class Autoguider(nn.Module):
    def __init__(self, aggressiveness=0.7, min_move=0.15, dec_backlash=0.8, snr_limit=8.0, max_lost=3):
        super().__init__()
        self.aggressiveness = aggressiveness
        self.min_move = min_move
        self.dec_backlash = dec_backlash
        self.snr_limit = snr_limit
        self.max_lost = max_lost
        self.seeing = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 1))

    def forward(self, frames):
        # frames: (F, H, W) guide camera images
        scale = 1.0
        if frames.shape[-1] > 64:
            frames = F.avg_pool2d(frames.unsqueeze(1), 2).squeeze(1)
            scale = 2.0
        lock = None
        last_dec_dir = torch.zeros(())
        lost = 0
        corrections = []
        for f in range(frames.shape[0]):
            c = find_star(frames[f], self.snr_limit)
            if c is None:
                lost += 1
                corrections.append(torch.zeros(2))
                if lost >= self.max_lost:
                    break
                continue
            lost = 0
            if lock is None:
                lock = c
            err = (c - lock) * scale
            corr = -self.aggressiveness * err
            if torch.abs(corr[0]) < self.min_move:
                corr = torch.stack([torch.zeros(()), corr[1]])
            dec_dir = torch.sign(corr[1])
            if dec_dir != 0 and last_dec_dir != 0 and dec_dir != last_dec_dir:
                corr = corr + torch.stack([torch.zeros(()), dec_dir * self.dec_backlash])
            if dec_dir != 0:
                last_dec_dir = dec_dir
            corrections.append(corr)
        while len(corrections) < frames.shape[0]:
            corrections.append(torch.zeros(2))
        out = torch.stack(corrections)
        quality = torch.sigmoid(self.seeing(out.abs().mean(0, keepdim=True))).reshape(())
        return out, quality


def model():
    torch.manual_seed(48018)
    return Autoguider().eval()


def _frames(size, centers, seed=0):
    g = torch.Generator().manual_seed(seed)
    yy, xx = torch.meshgrid(torch.arange(size, dtype=torch.float32),
                            torch.arange(size, dtype=torch.float32), indexing="ij")
    out = []
    for c in centers:
        img = 100.0 + 2.0 * torch.randn(size, size, generator=g)
        if c is not None:
            img = img + 400.0 * torch.exp(-((yy - c[0]) ** 2 + (xx - c[1]) ** 2) / (2 * 1.5 ** 2))
        out.append(img)
    return torch.stack(out)


def example_inputs():
    # drift in y (RA), Dec wobble changing direction, one cloud-covered frame
    return (_frames(32, [(16.0, 16.0), (16.6, 15.0), (17.5, 16.6), None, (16.05, 14.8), (17.0, 16.9)]),)


def dynamic_shapes():
    return ({0: torch.export.Dim("frames", min=2, max=32), 1: torch.export.Dim("pix", min=16, max=128),
             2: torch.export.Dim("pix", min=16, max=128)},)


def verify_inputs():
    return [
        example_inputs(),  # lock on first frame, small RA error suppressed, Dec reversal backlash, lost frame (continue)
        (_frames(96, [(40.0, 40.0), None, None, None, (44.0, 44.0)], seed=1),),  # binned sensor; 3 lost -> abort, pad
        (_frames(16, [None, (8.0, 8.0)], seed=2),),  # first frame lost, lock on second; min size
    ]
