"""Document layout post-processing: text blocks from a detector are merged when they
sit on consecutive lines of the same column (small vertical gap, large horizontal
overlap). Passes repeat until no merge happens. Boxes: [x0, y0, x1, y1] in pixels."""
import torch
from torch import nn


class BlockMerger(nn.Module):
    def __init__(self):
        super().__init__()
        # learned box refinement of detector output (tiny offsets)
        self.refine = nn.Linear(4, 4)
        self.line_gap = 12.0
        self.min_overlap = 0.5
        self.max_passes = 8

    def should_merge(self, a, b):
        vgap = torch.maximum(a[1], b[1]) - torch.minimum(a[3], b[3])
        if vgap > self.line_gap:
            return torch.tensor(False)
        inter = (torch.minimum(a[2], b[2]) - torch.maximum(a[0], b[0])).clamp(min=0.0)
        narrow = torch.minimum(a[2] - a[0], b[2] - b[0])
        return inter / narrow > self.min_overlap

    def merge_pass(self, boxes):
        n = boxes.shape[0]
        out = boxes.clone()
        alive = torch.ones(n, dtype=torch.bool)
        for i in range(n):
            if not alive[i]:
                continue
            for j in range(i + 1, n):
                if not alive[j]:
                    continue
                if self.should_merge(out[i], out[j]):
                    out[i] = torch.cat([torch.minimum(out[i, :2], out[j, :2]),
                                        torch.maximum(out[i, 2:], out[j, 2:])])
                    alive[j] = False
        return out[alive], (~alive).any()

    def forward(self, blocks):
        # blocks: (N, 4)
        boxes = blocks + 0.5 * torch.tanh(self.refine(blocks / 100.0))
        changed = torch.tensor(True)
        passes = 0
        while changed and passes < self.max_passes:
            boxes, changed = self.merge_pass(boxes)
            passes += 1
        order = torch.argsort(boxes[:, 1] * 10.0 + boxes[:, 0] / 100.0)
        return boxes[order], torch.tensor(passes)


def model():
    torch.manual_seed(0)
    return BlockMerger().eval()


def example_inputs():
    return (torch.tensor([[50.0, 100.0, 300.0, 120.0],
                          [50.0, 125.0, 290.0, 145.0],
                          [50.0, 150.0, 200.0, 170.0],
                          [350.0, 100.0, 600.0, 120.0],
                          [352.0, 126.0, 598.0, 146.0],
                          [50.0, 300.0, 600.0, 340.0]]),)


def dynamic_shapes():
    return ({0: torch.export.Dim("N", min=2, max=64)},)


def verify_inputs():
    return [
        # title far above body: no merge at all
        (torch.tensor([[100.0, 20.0, 500.0, 60.0], [50.0, 200.0, 550.0, 220.0]]),),
        # merge order needs a second pass: 0 and 2 merge, then the union reaches 1
        (torch.tensor([[50.0, 100.0, 300.0, 120.0],
                       [60.0, 150.0, 280.0, 170.0],
                       [55.0, 125.0, 290.0, 141.0],
                       [400.0, 500.0, 420.0, 520.0]]),),
    ]
