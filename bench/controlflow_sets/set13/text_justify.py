"""Greedy line breaking + full justification for an e-reader's text layout engine.

Input: word widths in character cells. Output per word: line index and the number of spaces
after it (justified lines fill the width exactly; the last line is ragged). A word wider than
the column stops the layout (the caller hyphenates it); unplaced words get line -1.
"""

import torch
from torch import nn


class Justifier(nn.Module):
    def __init__(self, width: int = 20):
        super().__init__()
        self.width = width

    def break_lines(self, lens: torch.Tensor):
        bounds = []
        start = 0
        n_used = lens.shape[0]
        cur = torch.tensor(-1)
        for i in range(lens.shape[0]):
            w = lens[i]
            if w > self.width:
                n_used = i
                break
            if cur + 1 + w > self.width:
                bounds.append((start, i))
                start = i
                cur = w
            else:
                cur = cur + 1 + w
        if n_used > start:
            bounds.append((start, n_used))
        return bounds, n_used

    def forward(self, lens: torch.Tensor):
        # lens: (N,) int64 word widths
        bounds, n_used = self.break_lines(lens)
        line_of, spaces = [], []
        for li in range(len(bounds)):
            s, e = bounds[li]
            n_gaps = e - s - 1
            last = li == len(bounds) - 1
            extra = self.width - lens[s:e].sum() - n_gaps  # spare cells on this line
            for k in range(e - s):
                if k == n_gaps:
                    sp = torch.tensor(0)  # end of line
                elif last:
                    sp = torch.tensor(1)
                else:
                    sp = 1 + extra // n_gaps + (1 if k < extra % n_gaps else 0)
                line_of.append(torch.tensor(li))
                spaces.append(sp)
        for i in range(n_used, lens.shape[0]):
            line_of.append(torch.tensor(-1))
            spaces.append(torch.tensor(0))
        return torch.stack(line_of), torch.stack(spaces), torch.tensor(len(bounds))


def model() -> nn.Module:
    torch.manual_seed(0)
    return Justifier().eval()


def example_inputs() -> tuple:
    return (torch.tensor([3, 5, 2, 7, 4, 4, 9, 1, 6, 3, 8, 2]),)


def dynamic_shapes():
    return ({0: torch.export.Dim("words", min=2, max=256)},)


def verify_inputs() -> list:
    g = torch.Generator().manual_seed(1)
    return [
        (torch.randint(1, 10, (60,), generator=g),),
        (torch.tensor([4, 6, 25, 3, 2]),),   # an overlong word stops the layout
        (torch.tensor([30, 2]),),            # nothing fits
        (torch.tensor([2, 3]),),             # a single ragged line
    ]
