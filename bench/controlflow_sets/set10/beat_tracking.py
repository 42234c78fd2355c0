"""Music beat tracker: a small conv net turns a log-mel spectrogram into an onset
strength envelope, the tempo comes from the envelope autocorrelation, and beats are
placed by stepping one period at a time and snapping to the local onset peak."""
import torch
from torch import nn
import torch.nn.functional as F


class OnsetNet(nn.Module):
    def __init__(self, n_mels=16):
        super().__init__()
        self.conv = nn.Conv1d(n_mels, 8, 3, padding=1)
        self.proj = nn.Conv1d(8, 1, 1)

    def forward(self, mel):
        flux = F.relu(mel[:, 1:] - mel[:, :-1])                  # spectral flux
        flux = F.pad(flux, (1, 0))
        x = F.relu(self.conv(flux.unsqueeze(0)))
        return flux.mean(dim=0) + 0.1 * F.softplus(self.proj(x))[0, 0]


def tempo_period(env, min_lag, max_lag):
    """Beat period in frames from the autocorrelation of the envelope."""
    env = env - env.mean()
    ac = []
    for lag in range(min_lag, max_lag):
        ac.append((env[:-lag] * env[lag:]).mean())
    ac = torch.stack(ac)
    return torch.argmax(ac) + min_lag


class BeatTracker(nn.Module):
    def __init__(self):
        super().__init__()
        self.onset = OnsetNet()
        self.min_lag, self.max_lag = 6, 20       # frames (~ 200..60 BPM at 20 fps)
        self.silence = 0.05
        self.weak = 0.3                          # relative to envelope max

    def forward(self, mel):
        # mel: (n_mels, T)
        T = mel.shape[1]
        env = self.onset(mel)
        if env.max() - env.median() < self.silence:
            return torch.zeros(0, dtype=torch.long), torch.tensor(0)
        period = tempo_period(env, self.min_lag, self.max_lag)
        pos = torch.argmax(env[: self.max_lag])
        half = period // 4
        peak = env.max()
        beats = []
        while pos < T:
            beats.append(pos)
            nxt = pos + period
            if nxt >= T:
                break
            lo = nxt - half
            hi = (nxt + half + 1).clamp(max=T)
            win = env[lo:hi]
            if win.max() < self.weak * peak:
                pos = nxt                         # no clear onset: keep the grid
                continue
            pos = lo + torch.argmax(win)
        return torch.stack(beats), period


def model():
    torch.manual_seed(0)
    return BeatTracker().eval()


def _music(T, period, seed, drop=()):
    g = torch.Generator().manual_seed(seed)
    mel = 0.05 * torch.rand(16, T, generator=g)
    for t in range(3, T, period):
        if t not in drop:
            mel[:, t] += 1.0 + 0.1 * torch.rand(16, generator=g)
    return mel


def example_inputs():
    return (_music(80, 10, 1),)


def dynamic_shapes():
    return ({1: torch.export.Dim("T", min=32, max=2048)},)


def verify_inputs():
    return [
        (torch.full((16, 40), 0.2),),                  # silence (flat spectrum)
        (_music(120, 8, 2, drop=(35, 43, 51)),),        # dropped beats: grid continues
        (_music(64, 13, 3),),
    ]
