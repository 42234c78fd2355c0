"""Speaking-rate meter for a presentation-coaching app: frame energy envelope,
syllable nuclei as local energy peaks above a floor with a minimum spacing,
syllables per second, and a small learned head that rates pacing
(too slow / good / too fast) from the peak statistics.

Input: audio [N] mono, 16 kHz.
Outputs: syllables per second [1], pacing probabilities [3].
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SpeechRateMeter(nn.Module):
    def __init__(self, sr=16000, frame=320, floor_db=-35.0, min_gap=4):
        super().__init__()
        self.sr = sr
        self.frame = frame
        self.floor_db = floor_db
        self.min_gap = min_gap
        self.pacing = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 3))

    def forward(self, audio):
        frames = audio.unfold(0, self.frame, self.frame)
        energy = frames.pow(2).mean(dim=1)
        env = 10.0 * torch.log10(energy + 1e-8)
        env = F.avg_pool1d(env.view(1, 1, -1), 3, stride=1, padding=1, count_include_pad=False).view(-1)
        duration = audio.shape[0] / self.sr

        peaks = []
        last = -self.min_gap
        for t in range(1, env.shape[0] - 1):
            if env[t] < self.floor_db:
                continue
            if env[t] >= env[t - 1] and env[t] > env[t + 1] and t - last >= self.min_gap:
                peaks.append(env[t])
                last = t

        if len(peaks) == 0:
            return torch.zeros(1), torch.tensor([1.0, 0.0, 0.0])
        heights = torch.stack(peaks)
        rate = torch.tensor([len(peaks) / duration])
        spread = heights.std() if len(peaks) > 1 else torch.zeros(())
        feats = torch.stack([rate[0] / 5.0, (heights.mean() + 20.0) / 20.0, spread / 10.0])
        return rate, torch.softmax(self.pacing(feats), dim=-1)


def model():
    torch.manual_seed(5)
    return SpeechRateMeter().eval()


def _speech(seconds, syl_hz, seed, amp=0.3, silence=False):
    g = torch.Generator().manual_seed(seed)
    n = int(seconds * 16000)
    t = torch.arange(n, dtype=torch.float32) / 16000.0
    carrier = torch.sin(2 * torch.pi * 180.0 * t) + 0.5 * torch.sin(2 * torch.pi * 360.0 * t)
    mod = torch.sin(torch.pi * syl_hz * t).abs() ** 2
    x = amp * mod * carrier
    if silence:
        x = torch.zeros(n)
    return (x + 1e-4 * torch.randn(n, generator=g),)


def example_inputs():
    return _speech(1.0, 4.0, seed=1)  # ~4 syllables per second


def dynamic_shapes():
    return ({0: torch.export.Dim("n_samples", min=1600, max=48000)},)


def verify_inputs():
    return [
        example_inputs(),  # several peaks; quiet valleys skipped (continue); gap check both sides
        _speech(2.5, 7.0, seed=2),  # fast speech, many peaks
        _speech(0.5, 2.0, seed=3, amp=0.1),  # one nucleus only -> spread = 0 branch of the ternary
        _speech(1.0, 14.0, seed=5),  # trilled syllables closer than min_gap -> spacing check rejects peaks
        _speech(0.3, 3.0, seed=4, silence=True),  # silence: every frame below floor -> no peaks -> early return
    ]
