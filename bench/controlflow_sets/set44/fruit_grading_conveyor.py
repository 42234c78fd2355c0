"""Apple grading on a packhouse conveyor: size/blemish rules + learned quality score.

Kind T. Constructs: 1, 3, 5, 7, 9.
"""
import torch
import torch.nn as nn
from torch.export import Dim


def grade_one(diam_mm, blemish, color):
    # returns one-hot over [extra, class1, class2, juice]
    if diam_mm >= 75 and blemish < 0.1:
        g = 0
    elif diam_mm >= 65 and (blemish < 0.25 or color > 0.8):
        g = 1
    elif not (blemish > 0.6):
        g = 2
    else:
        g = 3
    return torch.nn.functional.one_hot(torch.tensor(g), 4).float()


class FruitGrader(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([nn.Linear(6, 16), nn.Linear(16, 16), nn.Linear(16, 1)])

    def forward(self, feats):
        # feats: (N, 6) = diam_mm, blemish_frac, red_color, firmness, brix, weight_g/100
        h = feats
        for i, blk in enumerate(self.blocks):
            h = blk(h)
            if i < len(self.blocks) - 1:
                h = torch.relu(h)
        quality = torch.sigmoid(h).squeeze(-1)
        grades = []
        for i in range(feats.shape[0]):
            grades.append(grade_one(feats[i, 0], feats[i, 1], feats[i, 2]))
        return torch.stack(grades), quality


def model():
    torch.manual_seed(102)
    return FruitGrader().eval()


def _fruits(rows):
    return torch.tensor(rows, dtype=torch.float32)


def example_inputs():
    return (_fruits([
        [80.0, 0.05, 0.9, 7.0, 13.0, 2.1],   # extra
        [70.0, 0.40, 0.9, 6.0, 12.0, 1.8],   # class1 via colour
        [70.0, 0.15, 0.3, 6.5, 12.5, 1.7],   # class1 via low blemish
        [60.0, 0.40, 0.5, 5.0, 11.0, 1.2],   # class2
        [58.0, 0.80, 0.2, 4.0, 10.0, 1.1],   # juice
    ]),)


def dynamic_shapes():
    return ({0: Dim("fruits", min=2, max=64)},)


def verify_inputs():
    return [
        example_inputs(),   # all four grades, both sides of the or
        (_fruits([[85.0, 0.30, 0.2, 7.0, 14.0, 2.5], [66.0, 0.30, 0.5, 6.0, 12.0, 1.5]]),),  # big but blemished -> class2 paths
        (_fruits([[78.0, 0.02, 0.9, 7.0, 13.0, 2.0]] * 64),),  # max batch, all extra
    ]
