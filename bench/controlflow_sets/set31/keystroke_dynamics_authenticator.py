"""Keystroke-dynamics check for a banking login password field.

The typing rhythm (key hold times and key-to-key flight times) is compared
with the account owner's enrolled profile using the scaled Manhattan
distance, plus a learned rhythm score from a small GRU.  Close matches are
accepted, medium ones trigger a one-time-password step-up, replayed/scripted
input (identical hold times) and far-off rhythms are rejected.  Too few
keystrokes cannot be judged and always go to step-up.
"""
import torch
import torch.nn as nn


class KeystrokeVerifier(nn.Module):
    def __init__(self, min_keys=8, accept_dist=1.0, stepup_dist=2.5):
        super().__init__()
        self.min_keys = min_keys
        self.accept_dist = accept_dist
        self.stepup_dist = stepup_dist
        # enrolled profile: mean / spread of hold, flight, and hold+flight (seconds)
        self.register_buffer("profile_mean", torch.tensor([0.11, 0.18, 0.29]))
        self.register_buffer("profile_std", torch.tensor([0.02, 0.05, 0.06]))
        self.rhythm = nn.GRU(2, 8, batch_first=True)
        self.rhythm_head = nn.Linear(8, 1)

    def forward(self, timings):
        # timings: [K, 2] hold time and flight time per keystroke (seconds)
        if timings.shape[0] < self.min_keys:
            return torch.tensor(1), torch.zeros(())
        hold, flight = timings[:, 0], timings[:, 1]
        if (flight > 1.0).any():
            # the user paused (looked at a card, got distracted): not part of the rhythm
            flight = flight.clamp(max=1.0)
        feats = torch.stack([hold.mean(), flight.mean(), (hold + flight).mean()])
        dist = ((feats - self.profile_mean).abs() / self.profile_std).mean()
        _, h = self.rhythm(torch.stack([hold, flight], dim=-1).unsqueeze(0))
        dist = dist + 0.1 * torch.sigmoid(self.rhythm_head(h[-1, 0])).squeeze()

        scripted = hold.std() < 0.002
        if dist < self.accept_dist and not scripted:
            decision = 0   # accept
        elif dist < self.stepup_dist and not scripted:
            decision = 1   # step-up: ask for a one-time password
        else:
            decision = 2   # reject
        return torch.tensor(decision), torch.exp(-dist)


def model():
    torch.manual_seed(13)
    return KeystrokeVerifier().eval()


def _make_typing(k, hold_mean, flight_mean, seed, hold_jitter=0.02, pause_at=None):
    g = torch.Generator().manual_seed(seed)
    hold = hold_mean + hold_jitter * (torch.rand(k, generator=g) - 0.5) * 2
    flight = flight_mean + 0.04 * (torch.rand(k, generator=g) - 0.5) * 2
    if pause_at is not None:
        flight[pause_at] = 3.5
    return (torch.stack([hold, flight], dim=1),)


def example_inputs():
    # the account owner
    return _make_typing(12, 0.11, 0.18, 0)


def dynamic_shapes():
    return ({0: torch.export.Dim("keys", min=2, max=256)},)


def verify_inputs():
    return [
        # genuine rhythm: accept
        example_inputs(),
        # too few keystrokes: early step-up return
        _make_typing(5, 0.11, 0.18, 1),
        # owner, slower than usual: step-up branch
        _make_typing(14, 0.14, 0.25, 2),
        # different person: reject
        _make_typing(10, 0.07, 0.40, 3),
        # owner with a long pause in the middle (flight clamp branch) -> accept
        _make_typing(16, 0.11, 0.17, 4, pause_at=7),
        # replayed keystrokes: identical hold times -> reject despite a matching distance
        _make_typing(12, 0.11, 0.18, 5, hold_jitter=0.0),
    ]
