"""Procedural 2-D terrain for a side-scrolling game level: recursive midpoint displacement
between designer control heights (cliffs stay straight, the seabed is flattened), a
thermal-erosion pass until slopes are stable, and a learned biome classifier per column.
Outputs: height per column, biome id per column (0 water, 1 sand, 2 grass, 3 rock).
"""
import torch
import torch.nn as nn


class TerrainGenerator(nn.Module):
    def __init__(self, levels=4, roughness=0.55, amplitude=3.0, cliff=6.0, sea_level=0.0,
                 talus=1.2, tolerance=0.05, erosion_iters=25, long_level=24):
        super().__init__()
        g = torch.Generator().manual_seed(58)
        self.register_buffer("noise", torch.randn(64, 2 ** levels, generator=g))
        self.biome = nn.Linear(3, 4)
        self.levels, self.roughness, self.amplitude = levels, roughness, amplitude
        self.cliff, self.sea_level, self.talus, self.tolerance = cliff, sea_level, talus, tolerance
        self.erosion_iters, self.long_level = erosion_iters, long_level

    def subdivide(self, h0, h1, seg, depth, node):
        """Heights from h0 (inclusive) to h1 (exclusive) for one control segment."""
        n = 2 ** (self.levels - depth)
        if n == 1:
            return h0.reshape(1)
        if (h1 - h0).abs() > self.cliff:
            # cliff face: keep it a straight wall, no displacement below this node
            w = torch.arange(n, dtype=h0.dtype) / n
            return h0 + (h1 - h0) * w
        mid = 0.5 * (h0 + h1) + self.noise[seg % 64, node] * self.amplitude * self.roughness ** depth
        if mid < self.sea_level:
            mid = self.sea_level + 0.1 * (mid - self.sea_level)  # flatten the seabed
        left = self.subdivide(h0, mid, seg, depth + 1, 2 * node)
        right = self.subdivide(mid, h1, seg, depth + 1, 2 * node + 1)
        return torch.cat([left, right])

    def forward(self, control):
        k = control.shape[0]
        # long levels get one subdivision level less to stay inside the tile budget
        start_depth = 1 if k > self.long_level else 0
        parts = []
        for s in range(k - 1):
            parts.append(self.subdivide(control[s], control[s + 1], s, start_depth, 1))
        parts.append(control[-1:])
        h = torch.cat(parts)
        it = 0
        while it < self.erosion_iters:
            diff = h[1:] - h[:-1]
            excess = (diff.abs() - self.talus).clamp(min=0.0)
            if not (excess > self.tolerance).any():
                break  # every slope is (nearly) at or below the angle of repose
            move = 0.25 * excess * diff.sign()
            h = h + torch.cat([move, torch.zeros(1)]) - torch.cat([torch.zeros(1), move])
            it += 1
        slope = torch.cat([h[1:] - h[:-1], torch.zeros(1)]).abs()
        feats = torch.stack([h / 10.0, slope, (h - self.sea_level).clamp(max=0.0)], dim=1)
        # below sea level is always water; the classifier picks among the land biomes
        land = torch.argmax(self.biome(feats)[:, 1:], dim=1) + 1
        biome = torch.where(h <= self.sea_level, torch.zeros_like(land), land)
        return h, biome


def model():
    torch.manual_seed(5819)
    return TerrainGenerator().eval()


def example_inputs():
    # hills, a beach and a sea trench, with one 10 m cliff between columns 4 and 5
    return (torch.tensor([4.0, 6.0, 3.0, 1.0, 12.0, 2.0, -3.0, -5.0, 1.0]),)


def dynamic_shapes():
    return ({0: torch.export.Dim("control_points", min=2, max=40)},)


def verify_inputs():
    g = torch.Generator().manual_seed(19)
    long_level = torch.cumsum(1.5 * torch.randn(40, generator=g), 0)
    return [
        # cliffs kept straight, seabed flattened, several erosion passes
        example_inputs(),
        # 40 control points (> 24): subdivision starts one level deeper
        (long_level,),
        # 2 gentle points on land: no cliff, displacement slopes settle after a few passes
        (torch.tensor([5.0, 5.2]),),
        # jagged mountain range: erosion runs to the iteration cap
        (torch.tensor([0.0, 30.0, -20.0, 40.0, -30.0, 35.0]),),
    ]
