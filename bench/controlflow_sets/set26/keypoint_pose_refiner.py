"""Iterative 2D human-pose refinement (iterative error feedback).

Each detected person has an appearance feature and an initial 17-keypoint guess.
A detection head drops people that are not real detections; if nobody is left the
input pose is returned.  Otherwise the keypoints are moved towards a regressed pose
(plus a learned pose-prior correction) until the largest update is below tolerance or
the iteration budget is spent.
"""
import torch
import torch.nn as nn

N_KP = 17


class PoseRefiner(nn.Module):
    def __init__(self, feat_dim=32, max_iter=6, step=0.5, tol=0.02):
        super().__init__()
        self.det_head = nn.Linear(feat_dim, 1)
        self.regress = nn.Sequential(nn.Linear(feat_dim, 64), nn.Tanh(), nn.Linear(64, N_KP * 2))
        self.prior = nn.Linear(N_KP * 2, N_KP * 2)
        self.max_iter = max_iter
        self.step = step
        self.tol = tol

    def update(self, target, kp):
        flat = kp.flatten(1)
        correction = 0.1 * torch.tanh(self.prior(flat))
        return (target + correction - flat).view_as(kp)

    def forward(self, feats, kps):
        valid = torch.sigmoid(self.det_head(feats)).squeeze(-1) > 0.5
        if not valid.any():
            return kps, torch.zeros(1, dtype=torch.long)
        mask = valid.float()[:, None, None]
        target = self.regress(feats)
        kp = kps
        delta = self.update(target, kp) * mask
        it = 0
        while it < self.max_iter and delta.abs().amax() > self.tol:
            kp = kp + self.step * delta
            delta = self.update(target, kp) * mask
            it += 1
        return kp, torch.tensor([it])


def model():
    torch.manual_seed(0)
    return PoseRefiner().eval()


def _feats(g, m, signs):
    u = m.det_head.weight.detach()[0]
    u = u / u.norm()
    f = 0.5 * torch.randn(len(signs), 32, generator=g)
    return f + 3.0 * torch.tensor(signs)[:, None] * u


def _fixed_point(m, feats):
    with torch.no_grad():
        target = m.regress(feats)
        kp = torch.zeros(feats.shape[0], N_KP, 2)
        for _ in range(200):
            kp = kp + m.update(target, kp)
    return kp


def example_inputs():
    g = torch.Generator().manual_seed(1)
    m = model()
    f = _feats(g, m, [1.0, -1.0, 1.0])
    return f, _fixed_point(m, f) + 0.2 * torch.randn(3, N_KP, 2, generator=g)


def dynamic_shapes():
    P = torch.export.Dim("people", min=2, max=32)
    return ({0: P}, {0: P})


def verify_inputs():
    g = torch.Generator().manual_seed(2)
    m = model()
    out = []
    f = _feats(g, m, [-1.0, -1.0])                        # no real detection
    out.append((f, torch.randn(2, N_KP, 2, generator=g)))
    f = _feats(g, m, [1.0, 1.0, -1.0])                    # already converged: no iteration
    out.append((f, _fixed_point(m, f)))
    f = _feats(g, m, [1.0, -1.0])                         # one small correction
    kp = _fixed_point(m, f)
    kp[0, 3, 0] += 0.03
    out.append((f, kp))
    f = _feats(g, m, [1.0, 1.0, 1.0, -1.0])               # moderate error: a few iterations
    out.append((f, _fixed_point(m, f) + 0.05 * torch.randn(4, N_KP, 2, generator=g)))
    f = _feats(g, m, [1.0, -1.0, 1.0, 1.0, 1.0])          # far off: iteration budget runs out
    out.append((f, torch.randn(5, N_KP, 2, generator=g)))
    return out
