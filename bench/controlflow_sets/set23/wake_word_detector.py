"""Streaming wake-word detector over log-mel frames: silent frames are skipped
by an energy gate, speech frames are scored by a small MLP, the posterior is
exponentially smoothed and the stream stops at the first trigger."""
import torch
import torch.nn as nn


class FrameScorer(nn.Module):
    def __init__(self, n_mels=10, hidden=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_mels, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, frame):
        return torch.sigmoid(self.net(frame)).squeeze(-1)


class WakeWordDetector(nn.Module):
    def __init__(self, energy_floor=0.05, smoothing=0.5, trigger=0.5, silence_decay=0.8):
        super().__init__()
        self.scorer = FrameScorer()
        self.energy_floor = energy_floor
        self.smoothing = smoothing
        self.trigger = trigger
        self.silence_decay = silence_decay

    def forward(self, frames):
        energy = frames.pow(2).mean(-1)
        smoothed = torch.zeros(())
        trigger_at = torch.tensor(-1)
        history = []
        for t in range(frames.shape[0]):
            if energy[t] < self.energy_floor:
                smoothed = smoothed * self.silence_decay
                history.append(smoothed)
                continue
            p = self.scorer(frames[t])
            smoothed = self.smoothing * smoothed + (1 - self.smoothing) * p
            history.append(smoothed)
            if smoothed > self.trigger:
                trigger_at = torch.tensor(t)
                break
        return torch.stack(history), trigger_at


def model():
    torch.manual_seed(0)
    return WakeWordDetector().eval()


def _stream(pattern, seed):
    """pattern: string of 's' (silence) / 'v' (voice) / 'k' (keyword-like) frames."""
    g = torch.Generator().manual_seed(seed)
    rows = []
    for c in pattern:
        noise = torch.randn(10, generator=g)
        if c == "s":
            rows.append(noise * 0.02)
        elif c == "v":
            rows.append(noise * 0.5 + 0.4)
        else:
            rows.append(noise * 0.3 + 2.0)
    return (torch.stack(rows),)


def example_inputs():
    return _stream("ssvvkkkvss", 0)


def dynamic_shapes():
    return ({0: torch.export.Dim("frames", min=2, max=256)},)


def verify_inputs():
    return [
        _stream("svvsvvsv", 1),
        _stream("kkkkkk", 2),
        _stream("ssssssssssssvvvv", 3),
    ]
