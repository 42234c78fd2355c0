"""Single-beam echo sounder (fish-finder / USV depth sonar): find the first
bottom echo in the received envelope after the transducer ring-down, convert
time-of-flight to depth with a temperature-corrected speed of sound, and
classify the seabed type from the echo shape with a small learned head.

Inputs: envelope [N] (received amplitude, fs = 20 kHz, N samples), water_temp [1] in C.
Outputs: depth [1] in metres (max range when no echo), bottom-type probabilities [4].
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class EchoRanger(nn.Module):
    def __init__(self, fs=20000.0, blanking=16, echo_len=32, max_samples=512):
        super().__init__()
        self.fs = fs
        self.blanking = blanking
        self.echo_len = echo_len
        self.max_samples = max_samples
        self.bottom_head = nn.Sequential(nn.Linear(echo_len, 24), nn.ReLU(), nn.Linear(24, 4))

    def forward(self, envelope, water_temp):
        fs = self.fs
        if envelope.shape[0] > self.max_samples:
            # long pings: decimate by 2 to keep the scan cheap
            envelope = F.avg_pool1d(envelope.view(1, 1, -1), 2).view(-1)
            fs = fs / 2
        sm = F.avg_pool1d(envelope.view(1, 1, -1), 5, stride=1, padding=2, count_include_pad=False).view(-1)
        noise = sm[-32:].median()
        threshold = 4.0 * noise + 0.05

        c = 1449.2 + 4.6 * water_temp - 0.055 * water_temp ** 2
        hit = -1
        for i in range(self.blanking, sm.shape[0]):
            if sm[i] < threshold:
                continue
            hit = i
            break
        if hit < 0:
            max_depth = c * sm.shape[0] / fs / 2.0
            return max_depth.reshape(1), torch.full((4,), 0.25)

        depth = c * hit / fs / 2.0
        echo = sm[hit:hit + self.echo_len]
        if echo.shape[0] < self.echo_len:
            echo = F.pad(echo, (0, self.echo_len - echo.shape[0]))
        echo = echo / echo.max()
        probs = torch.softmax(self.bottom_head(echo), dim=-1)
        return depth.reshape(1), probs


def model():
    torch.manual_seed(3)
    return EchoRanger().eval()


def _ping(n, echo_at, echo_amp, temp, seed, width=12.0):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n, dtype=torch.float32)
    ringdown = 2.0 * torch.exp(-t / 3.0)
    env = 0.02 + 0.01 * torch.rand(n, generator=g) + ringdown
    if echo_at is not None:
        env = env + echo_amp * torch.exp(-((t - echo_at) / width) ** 2)
    return env, torch.tensor([temp])


def example_inputs():
    return _ping(300, 120.0, 1.0, 15.0, seed=1)  # bottom echo well inside the window


def dynamic_shapes():
    return ({0: torch.export.Dim("n_samples", min=64, max=1024)}, None)


def verify_inputs():
    return [
        example_inputs(),  # no decimation; echo found (continue many times, then break); full echo window
        _ping(800, 500.0, 0.8, 8.0, seed=2),  # N > 512 -> decimated; echo found
        _ping(200, None, 0.0, 20.0, seed=3),  # no echo: loop never breaks -> max-range early return
        _ping(100, 93.0, 1.2, 25.0, seed=4, width=3.0),  # echo near the end -> echo window shorter than 32, padded
        _ping(64, 30.0, 1.5, 10.0, seed=5),  # minimum length, shallow echo
    ]
