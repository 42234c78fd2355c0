"""Dog activity collar: windowed IMU classifier + debounced activity state machine.

Constructs: 1 (if/elif chains), 5 (for over T // 16 windows), 6 (continue on
sensor dropout), 7 (classifier submodule with its own branches and returns),
9 (loop over nn.ModuleList of per-state heads), 2 (state/pending updated in some
branches only).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

REST, WALK, RUN, PLAY = 0, 1, 2, 3


class WindowClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.rest_level = 0.05
        self.run_level = 1.5
        self.play_gyro = 2.0

    def forward(self, win):
        acc = win[:, :3].pow(2).sum(1).mean()
        gyro = win[:, 3:].pow(2).sum(1).mean()
        if acc < self.rest_level:
            return torch.tensor(REST)
        if acc < self.run_level:
            return torch.tensor(WALK)
        if gyro > self.play_gyro:
            return torch.tensor(PLAY)
        return torch.tensor(RUN)


class DogActivityCollar(nn.Module):
    def __init__(self, win=16):
        super().__init__()
        self.win = win
        self.classifier = WindowClassifier()
        self.heads = nn.ModuleList([nn.Linear(6, 4) for _ in range(4)])

    def forward(self, imu):
        # imu: [T, 6] accel (g) + gyro (rad/s)
        state = torch.tensor(REST)
        pending = torch.tensor(-1)
        durations = torch.zeros(4)
        for i in range(imu.shape[0] // self.win):
            win = imu[i * self.win:(i + 1) * self.win]
            if win.abs().sum() == 0:
                continue  # collar lost contact
            obs = self.classifier(win)
            if obs == state:
                pending = torch.tensor(-1)
            elif obs == pending:
                state = obs
                pending = torch.tensor(-1)
            else:
                pending = obs
            durations = durations + F.one_hot(state, 4).float()
        onehot = F.one_hot(state, 4).float()
        feats = imu.abs().mean(0)
        emb = torch.zeros(4)
        for k, head in enumerate(self.heads):
            emb = emb + onehot[k] * torch.tanh(head(feats))
        return durations, onehot, emb


def model():
    torch.manual_seed(12)
    return DogActivityCollar().eval()


def _segment(kind, n_win, seed):
    g = torch.Generator().manual_seed(seed)
    T = 16 * n_win
    t = torch.arange(T, dtype=torch.float32)
    s = torch.sin(2 * torch.pi * t / 8.0)
    x = 0.01 * torch.randn(T, 6, generator=g)
    if kind == "walk":
        x[:, 0] += 1.0 * s
    elif kind in ("run", "play"):
        x[:, :3] += 1.5 * s.unsqueeze(1)
        if kind == "play":
            x[:, 3:] += 2.0 * s.unsqueeze(1)
    elif kind == "drop":
        x = torch.zeros(T, 6)
    return x


def _imu(parts, seed=0):
    return torch.cat([_segment(k, n, seed + i) for i, (k, n) in enumerate(parts)])


def example_inputs():
    return (_imu([("rest", 2), ("walk", 3), ("drop", 1), ("run", 3), ("walk", 1), ("play", 3)]),)


def dynamic_shapes():
    return ({0: torch.export.Dim("samples", min=32, max=512)},)


def verify_inputs():
    return [
        example_inputs(),                          # all classes, debounce confirm / pending / reset, dropout
        (_imu([("rest", 2)]),),                    # min size, stays at rest
        (_imu([("drop", 2), ("walk", 2)], 5),),    # dropout then walk confirmed
        (_imu([("play", 16), ("rest", 16)], 7),),  # max size
    ]
