"""Tennis line calling: ball track over frames, find bounce, call IN/OUT with margin (tricky)."""
import torch
from torch import nn


def find_bounce(z: torch.Tensor) -> int:
    # first local minimum of height below 4 cm; -1 if none
    for t in range(1, z.shape[0] - 1):
        if z[t] < z[t - 1] and z[t] <= z[t + 1] and z[t] < 0.04:
            return t
    return -1


class LineCaller(nn.Module):
    def __init__(self):
        super().__init__()
        self.smooth = nn.Conv1d(3, 3, 3, padding=1, groups=3, bias=False)
        with torch.no_grad():
            self.smooth.weight.fill_(1.0 / 3)
        self.conf = nn.Linear(3, 1)
        self.line_x = 4.115

    def forward(self, track: torch.Tensor):
        # track: [T, 3] (x, y, z) positions; T dynamic
        sm = self.smooth(track.t().unsqueeze(0)).squeeze(0).t()
        sm = torch.cat([track[:1], sm[1:-1], track[-1:]], 0)
        t = find_bounce(sm[:, 2])
        if t < 0:
            return torch.tensor(-1), torch.zeros(())
        p = sm[t]
        dist = p[0].abs() - self.line_x
        call = torch.tensor(1) if dist > 0.0 else torch.tensor(0)
        c = torch.sigmoid(self.conf(p)).squeeze(-1)
        return call, c * dist.abs()


def model():
    torch.manual_seed(14)
    return LineCaller().eval()


def _track(T, bounce_at, x):
    t = torch.arange(T, dtype=torch.float32)
    z = (t - bounce_at).abs() * 0.05
    xs = torch.full((T,), x)
    ys = t * 0.5
    return torch.stack([xs, ys, z], 1)


def example_inputs():
    return (_track(20, 8.0, 3.5),)


def dynamic_shapes():
    return ({0: torch.export.Dim("frames", min=4, max=300)},)


def verify_inputs():
    return [(_track(30, 20.0, -4.8),), (_track(12, 40.0, 3.0),), (_track(15, 3.0, 4.5),)]
