"""Palletizing robot cell: place a stream of cartons on a 1.2 x 1.0 m pallet
row by row and layer by layer.

For each carton a learned grasp-quality model (vacuum gripper) decides
whether the robot can pick it; bad picks go to the reject lane.  Cartons fill
a row along x; when a carton does not fit the row a new row starts; when a
row does not fit the layer depth a new layer starts on top of the tallest
carton of the layer.  The whole cell stops when the pallet height or the
pallet weight limit would be exceeded.
Returns per-carton placement (x, y, z) in metres (-1 for not placed), the
number of layers and the number of rejected cartons.
"""
import torch
import torch.nn as nn


class GraspQuality(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, carton):
        return torch.sigmoid(self.net(carton)).squeeze(-1)


class LayerStacker(nn.Module):
    def __init__(self, pallet_w=1.2, pallet_d=1.0, max_height=1.5, max_weight=600.0):
        super().__init__()
        self.grasp = GraspQuality()
        self.pallet_w = pallet_w
        self.pallet_d = pallet_d
        self.max_height = max_height
        self.max_weight = max_weight
        self.min_grasp = 0.5
        self.suction_kg_per_m2 = 600.0

    def forward(self, cartons):
        # cartons[i] = (length_x, depth_y, height_z, weight_kg)
        n = cartons.shape[0]
        learned = self.grasp(cartons / torch.tensor([1.0, 1.0, 1.0, 30.0]))
        # vacuum cup holding force scales with the top-face area; want 2x safety
        capacity_kg = cartons[:, 0] * cartons[:, 1] * self.suction_kg_per_m2
        quality = 0.3 * learned + 0.7 * (capacity_kg / (2.0 * cartons[:, 3])).clamp(max=1.0)

        place = torch.full((n, 3), -1.0)
        z = torch.zeros(())
        weight = torch.zeros(())
        rejected = 0
        layers = 0
        i = 0
        stop = False
        while i < n and z < self.max_height:
            x = torch.zeros(())
            y = torch.zeros(())
            row_depth = torch.zeros(())
            layer_height = torch.zeros(())
            placed_in_layer = 0
            while i < n:
                length, depth, height, kg = cartons[i]
                if quality[i] < self.min_grasp:
                    rejected += 1
                    i += 1
                    continue
                if weight + kg > self.max_weight or z + height > self.max_height:
                    stop = True
                    break
                if x + length > self.pallet_w:
                    # start a new row
                    x = torch.zeros(())
                    y = y + row_depth
                    row_depth = torch.zeros(())
                if y + depth > self.pallet_d:
                    break                       # layer full, carton i goes on the next layer
                place[i] = torch.stack([x, y, z])
                x = x + length
                row_depth = torch.maximum(row_depth, depth)
                layer_height = torch.maximum(layer_height, height)
                weight = weight + kg
                placed_in_layer += 1
                i += 1
            if placed_in_layer > 0:
                layers += 1
                z = z + layer_height
            if stop or placed_in_layer == 0:
                break
        return place, torch.tensor(layers), torch.tensor(rejected)


def model():
    torch.manual_seed(515)
    return LayerStacker().eval()


def _cartons(n, seed, size=(0.4, 0.3, 0.25), kg=8.0, heavy_small_every=0):
    g = torch.Generator().manual_seed(seed)
    dims = torch.tensor(size) * (0.9 + 0.2 * torch.rand(n, 3, generator=g))
    w = kg * (0.8 + 0.4 * torch.rand(n, 1, generator=g))
    c = torch.cat([dims, w], dim=1)
    if heavy_small_every:
        c[::heavy_small_every] = torch.tensor([0.15, 0.1, 0.1, 25.0])
    return (c,)


def example_inputs():
    return _cartons(20, seed=1, heavy_small_every=7)


def dynamic_shapes():
    return ({0: torch.export.Dim("cartons", min=2, max=128)},)


def verify_inputs():
    return [
        example_inputs(),                                   # two layers, some rejects, runs out of cartons
        _cartons(2, seed=2),                                # two cartons, one row
        _cartons(128, seed=3),                              # many cartons -> pallet height limit stops the cell
        _cartons(60, seed=4, size=(0.5, 0.4, 0.2), kg=25.0),  # heavy cartons -> weight limit stops the cell
        _cartons(3, seed=5, size=(0.5, 0.4, 0.2), kg=14.0, heavy_small_every=1),  # every carton rejected
    ]
