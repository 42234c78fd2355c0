"""Sphere tracing of a neural signed-distance field (analytic proxy scene plus
a learned detail residual), as in a real-time neural-SDF viewer: rays are
marched together until they all hit or leave the scene, large ray batches
are traced in chunks with a cheap sky early-out per chunk, and hit points are
shaded with finite-difference normals and a Lambert light.

Inputs: origins [R, 3], dirs [R, 3] (unit ray directions).
Outputs: rgb [R, 3], depth [R].
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DetailSDF(nn.Module):
    def __init__(self, hidden=32, detail=0.04):
        super().__init__()
        self.detail = detail
        self.mlp = nn.Sequential(nn.Linear(3, hidden), nn.Softplus(), nn.Linear(hidden, hidden), nn.Softplus(),
                                 nn.Linear(hidden, 1))

    def forward(self, p):
        sphere = p.norm(dim=-1) - 1.0
        ground = p[:, 1] + 1.0
        base = torch.minimum(sphere, ground)
        return base + self.detail * torch.tanh(self.mlp(p)).squeeze(-1)


class SphereTracer(nn.Module):
    def __init__(self, eps=2e-2, far=12.0, max_steps=48, chunk=32, step_scale=0.9):
        super().__init__()
        self.eps = eps
        self.far = far
        self.max_steps = max_steps
        self.chunk = chunk
        self.step_scale = step_scale
        self.sdf = DetailSDF()
        self.register_buffer("light", F.normalize(torch.tensor([0.4, 1.0, 0.3]), dim=0))
        self.register_buffer("sky", torch.tensor([0.55, 0.7, 0.95]))
        self.register_buffer("albedo", torch.tensor([0.8, 0.6, 0.4]))

    def march(self, origins, dirs):
        t = torch.zeros(origins.shape[0])
        hit = torch.zeros(origins.shape[0], dtype=torch.bool)
        active = torch.ones(origins.shape[0], dtype=torch.bool)
        steps = 0
        while active.any() and steps < self.max_steps:
            d = self.sdf(origins + t.unsqueeze(1) * dirs)
            newly = active & (d < self.eps)
            hit = hit | newly
            t = torch.where(active & ~newly, t + self.step_scale * d, t)
            active = active & ~newly & (t < self.far)
            steps += 1
        return t, hit

    def normals(self, p, h=1e-3):
        offsets = torch.eye(3) * h
        grads = [self.sdf(p + offsets[i]) - self.sdf(p - offsets[i]) for i in range(3)]
        return F.normalize(torch.stack(grads, dim=1), dim=1)

    def forward(self, origins, dirs):
        n = origins.shape[0]
        if n > self.chunk:
            ts, hits = [], []
            for s in range(0, n, self.chunk):
                o, d = origins[s:s + self.chunk], dirs[s:s + self.chunk]
                if (d[:, 1] > 0.5).all() and (o[:, 1] > 1.5).all():
                    # whole chunk looks up from above the scene: sky
                    ts.append(torch.full((o.shape[0],), self.far))
                    hits.append(torch.zeros(o.shape[0], dtype=torch.bool))
                    continue
                t, h = self.march(o, d)
                ts.append(t)
                hits.append(h)
            t, hit = torch.cat(ts), torch.cat(hits)
        else:
            t, hit = self.march(origins, dirs)

        rgb = self.sky.expand(n, 3).clone()
        depth = torch.where(hit, t, torch.full_like(t, self.far))
        if not hit.any():
            return rgb, depth
        p = origins[hit] + t[hit].unsqueeze(1) * dirs[hit]
        lambert = (self.normals(p) @ self.light).clamp(min=0.0)
        rgb[hit] = (0.15 + 0.85 * lambert).unsqueeze(1) * self.albedo
        return rgb, depth


def model():
    torch.manual_seed(18)
    return SphereTracer().eval()


def _camera(n, eye, look_at, fov, seed):
    g = torch.Generator().manual_seed(seed)
    eye = torch.tensor(eye)
    fwd = F.normalize(torch.tensor(look_at) - eye, dim=0)
    right = F.normalize(torch.linalg.cross(fwd, torch.tensor([0.0, 1.0, 0.0])), dim=0)
    up = torch.linalg.cross(right, fwd)
    uv = (torch.rand(n, 2, generator=g) * 2.0 - 1.0) * fov
    dirs = F.normalize(fwd + uv[:, :1] * right + uv[:, 1:] * up, dim=1)
    return eye.expand(n, 3).clone(), dirs


def example_inputs():
    return _camera(24, [0.0, 0.5, -4.0], [0.0, 0.0, 0.0], 0.45, seed=9)


def dynamic_shapes():
    rays = torch.export.Dim("rays", min=2, max=256)
    return ({0: rays}, {0: rays})


def verify_inputs():
    scene = _camera(80, [0.5, 1.0, -4.0], [0.0, -0.3, 0.0], 0.6, seed=7)
    sky_o, sky_d = _camera(40, [0.0, 2.5, -1.0], [0.0, 6.0, 0.0], 0.3, seed=3)
    return [
        example_inputs(),  # single batch; rays hit the sphere, the ground, or escape past far
        scene,  # 80 rays > chunk: 3 chunks marched (last one partial)
        (torch.cat([sky_o, scene[0][:30]]), torch.cat([sky_d, scene[1][:30]])),  # 70 rays: first chunk all sky (continue)
        _camera(6, [0.0, 3.0, -2.0], [0.0, 8.0, 6.0], 0.2, seed=4),  # small batch looking up: nothing hit -> early return
    ]
