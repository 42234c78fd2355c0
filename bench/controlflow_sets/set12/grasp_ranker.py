"""Robot grasp pose ranker.

Inputs: N candidate grasps (N, 7) = position xyz (m) + unit quaternion (x, y, z, w), and
a local depth patch per candidate (N, 1, 16, 16). A CNN + MLP scores each grasp; grasps
approaching from below the horizontal or colliding with the table are rejected; the best
k valid grasps are returned (fewer when fewer are valid, none when none are).
"""
import torch
from torch import nn


class PatchEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(1, 8, 3, stride=2, padding=1), nn.ReLU(),
                                  nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU())
        self.fc = nn.Linear(16 * 4 * 4, 32)

    def forward(self, patches):
        return torch.relu(self.fc(self.conv(patches).flatten(1)))


class GraspRanker(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = PatchEncoder()
        self.head = nn.Sequential(nn.Linear(32 + 7, 32), nn.ReLU(), nn.Linear(32, 1))
        self.k = 5
        self.min_approach = 0.2   # z-component of the approach axis (pointing down)
        self.table_z = 0.01

    def forward(self, poses: torch.Tensor, patches: torch.Tensor):
        score = self.head(torch.cat([self.enc(patches), poses], dim=1))[:, 0] * 10.0
        qx, qy = poses[:, 3], poses[:, 4]
        approach_down = 1.0 - 2.0 * (qx * qx + qy * qy)
        valid = (approach_down > self.min_approach) & (poses[:, 2] > self.table_z)
        if not valid.any():
            return torch.zeros(0, 7), torch.zeros(0)
        idx = valid.nonzero()[:, 0]
        s = score[idx]
        if idx.shape[0] > self.k:
            top = torch.topk(s, self.k).indices
        else:
            top = torch.sort(s, descending=True).indices
        return poses[idx[top]], s[top]


def model():
    torch.manual_seed(13)
    return GraspRanker().eval()


def _cands(seed, n, tilt=0.4, z_lo=0.0):
    g = torch.Generator().manual_seed(seed)
    pos = torch.rand(n, 3, generator=g) * torch.tensor([0.4, 0.4, 0.2]) + torch.tensor([0.0, 0.0, z_lo])
    q = torch.randn(n, 4, generator=g) * torch.tensor([tilt, tilt, 1.0, 1.0])
    q = q / q.norm(dim=1, keepdim=True)
    patches = torch.rand(n, 1, 16, 16, generator=g)
    return torch.cat([pos, q], dim=1), patches


def example_inputs():
    return _cands(0, 20)


def dynamic_shapes():
    n = torch.export.Dim("N", min=2, max=1024)
    return ({0: n}, {0: n})


def verify_inputs():
    return [_cands(1, 3), _cands(4, 200), _cands(3, 8, tilt=10.0, z_lo=-0.3), _cands(5, 4, tilt=0.1)]
