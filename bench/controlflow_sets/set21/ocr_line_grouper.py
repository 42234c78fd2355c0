"""OCR layout post-processing: group word boxes into text lines, then reading order inside each line."""
import torch
from torch import nn
from torch.export import Dim


class LineGrouper(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, boxes):
        N = boxes.shape[0]
        cy = 0.5 * (boxes[:, 1] + boxes[:, 3])
        order = torch.argsort(cy)
        line_id = torch.full((N,), -1, dtype=torch.long)
        n_lines = 0
        bot = boxes[0, 3]
        for r in range(N):
            i = int(order[r])
            if n_lines > 0 and cy[i] < bot:
                bot = torch.maximum(bot, boxes[i, 3])          # same line, grow it
            else:
                n_lines += 1                                  # start a new line
                bot = boxes[i, 3]
            line_id[i] = n_lines - 1
        rank = torch.zeros(N, dtype=torch.long)
        base = 0
        for L in range(n_lines):
            members = (line_id == L).nonzero().squeeze(1)
            cnt = members.shape[0]
            if cnt == 1:
                rank[members] = base
                base += 1
                continue
            xs = boxes[members, 0]
            within = torch.argsort(xs)
            rank[members[within]] = base + torch.arange(cnt)
            base += cnt
        return line_id, rank


def model():
    return LineGrouper().eval()


def _page(rows, seed):
    """rows: list of (y_top, n_words); words get distinct x positions and small vertical jitter."""
    g = torch.Generator().manual_seed(seed)
    out = []
    for j, (y, n) in enumerate(rows):
        xs = torch.randperm(n, generator=g).float() * 70.0 + 10.0 + 3.0 * j
        for k in range(n):
            jit = 0.37 * k + 0.05 * j
            out.append([float(xs[k]), y + jit, float(xs[k]) + 55.0, y + 18.0 + jit])
    perm = torch.randperm(len(out), generator=g)
    return torch.tensor(out)[perm]


def example_inputs():
    return (_page([(20.0, 4), (50.0, 3), (80.0, 1), (110.0, 5)], 1),)


def verify_inputs():
    return [
        (_page([(30.0, 2)], 2),),                                  # one line
        (_page([(10.0, 1), (40.0, 1), (75.0, 2)], 3),),
        (_page([(15.0, 6), (45.0, 6), (77.0, 4), (105.0, 3), (140.0, 2)], 4),),
    ]


def dynamic_shapes():
    return ({0: Dim("words", min=2, max=64)},)
