"""Single-pass inkjet: compensate missing / weak nozzles found on the nozzle-check print by
shifting their ink to the neighbouring nozzles, so the dropout streak does not show."""
import torch
import torch.nn as nn
from torch.export import Dim


def redistribute(comp, image, dead, j):
    """Move column j's ink to live neighbours; returns False if it is lost."""
    n = dead.shape[0]
    left_ok = j > 0 and not dead[j - 1]
    right_ok = j < n - 1 and not dead[j + 1]
    if left_ok and right_ok:
        comp[:, j - 1] += 0.5 * image[:, j]
        comp[:, j + 1] += 0.5 * image[:, j]
    elif left_ok or right_ok:
        nb = j - 1 if left_ok else j + 1
        comp[:, nb] += image[:, j]
    else:
        return False  # a run of dead nozzles: nothing adjacent can cover it
    return True


class NozzleCompensator(nn.Module):
    def __init__(self, dead_thresh=0.3, max_dead_frac=0.05):
        super().__init__()
        self.dead_thresh, self.max_dead_frac = dead_thresh, max_dead_frac
        # learned ink-spread kernel across neighbouring columns (dot gain on this media)
        self.spread = nn.Conv1d(1, 1, kernel_size=3, padding=1, bias=False)

    def forward(self, drop_vol, image):
        # drop_vol (N,) measured drop volume / nominal per nozzle; image (R, N) tone 0..1
        dead = drop_vol < self.dead_thresh
        if dead.float().mean() > self.max_dead_frac:
            return image, torch.tensor(-1), torch.zeros(())  # purge + wipe before printing
        comp = torch.where(dead, torch.zeros_like(image), image / drop_vol.clamp(min=0.5))
        idx = torch.nonzero(dead).flatten()
        lost = 0
        severity = []
        for k in range(idx.shape[0]):
            j = int(idx[k])
            if not redistribute(comp, image, dead, j):
                lost += 1
            severity.append(image[:, j].mean())
        comp = comp.clamp(0.0, 1.0)
        # visible streak estimate: residual tone error after the media spreads the ink
        w = torch.softmax(self.spread.weight.view(-1), 0).view(1, 1, 3)
        seen = nn.functional.conv1d(comp.unsqueeze(1), w, padding=1).squeeze(1)
        streak = (seen - image).abs().amax()
        worst = torch.stack(severity).amax() if severity else torch.zeros(())
        return comp, torch.tensor(lost), streak * worst


def model():
    torch.manual_seed(6010)
    return NozzleCompensator().eval()


def _head(n, rows, seed, dead=(), weak=()):
    g = torch.Generator().manual_seed(seed)
    vol = 0.9 + 0.2 * torch.rand(n, generator=g)
    for j in dead:
        vol[j] = 0.05
    for j in weak:
        vol[j] = 0.6
    image = torch.rand(rows, n, generator=g) * 0.8
    return vol, image


def example_inputs():
    return _head(64, 8, 1, dead=(10, 40), weak=(20,))


def dynamic_shapes():
    nz = Dim("nozzles", min=8, max=256)
    return ({0: nz}, {0: Dim("rows", min=2, max=32), 1: nz})


def verify_inputs():
    return [
        _head(64, 8, 1, dead=(10, 40), weak=(20,)),   # example: two isolated dead nozzles
        _head(8, 2, 2),                               # min nozzles / rows: healthy head
        _head(256, 32, 3, dead=(0, 100, 101, 255)),   # max: edge nozzles + a dead pair
        _head(256, 4, 4, dead=(50, 51, 52)),          # run of three: middle one is lost
        _head(16, 4, 5, dead=(3, 9)),                 # too many dead (12%): purge request
    ]
