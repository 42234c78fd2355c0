"""Wearable sleep staging: per-epoch classifier + hysteresis smoothing of the hypnogram."""
import torch
import torch.nn as nn

N_STAGES = 5  # wake, N1, N2, N3, REM


class EpochEncoder(nn.Module):
    def __init__(self, n_feat=8, hidden=16):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(n_feat, hidden), nn.Linear(hidden, hidden)])
        self.head = nn.Linear(hidden, N_STAGES)

    def forward(self, x):
        for layer in self.layers:  # static
            x = torch.tanh(layer(x))
        return self.head(x) * 4.0


class SleepStageSmoother(nn.Module):
    """A stage change is only accepted when the classifier is confident enough."""

    def __init__(self, switch_conf=0.5):
        super().__init__()
        self.encoder = EpochEncoder()
        self.switch_conf = switch_conf

    def forward(self, feats):
        probs = torch.softmax(self.encoder(feats), dim=-1)
        conf, raw = probs.max(dim=-1)
        stage = raw[0]
        n_switch = torch.zeros((), dtype=torch.long)
        stages = []
        for t in range(feats.shape[0]):
            cand = raw[t]
            if cand != stage and conf[t] > self.switch_conf:
                stage = cand
                n_switch = n_switch + 1
            stages.append(stage)
        return torch.stack(stages), n_switch


def model():
    torch.manual_seed(0)
    return SleepStageSmoother().eval()


def _feats(seed, t):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(t, 8, generator=g) * 2.0,)


def example_inputs():
    return _feats(1, 12)


def dynamic_shapes():
    return ({0: torch.export.Dim("epochs", min=2, max=256)},)


def verify_inputs():
    return [_feats(2, 6), _feats(3, 20), _feats(4, 3)]
