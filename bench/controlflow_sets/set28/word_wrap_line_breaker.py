"""Text layout engine: greedy line breaking of measured word widths, with a raggedness cost."""
import torch
import torch.nn as nn


class LineBreaker(nn.Module):
    def __init__(self, space=1.0):
        super().__init__()
        self.space = space

    def forward(self, widths, max_width):
        # widths [N] (glyph units, whole numbers), max_width [1]
        limit = max_width[0]
        lines = []
        line_of_word = []
        cur = torch.zeros(())
        line_idx = 0
        for i in range(widths.shape[0]):
            w = widths[i]
            if w > limit:
                # overlong word (URL...) gets a line of its own and is clipped
                if cur > 0:
                    lines.append(cur)
                    line_idx += 1
                lines.append(limit)
                line_of_word.append(line_idx)
                line_idx += 1
                cur = torch.zeros(())
                continue
            extra = w if cur == 0 else w + self.space
            if cur + extra > limit:
                lines.append(cur)
                line_idx += 1
                cur = w
            else:
                cur = cur + extra
            line_of_word.append(line_idx)
        if cur > 0:
            lines.append(cur)
        line_widths = torch.stack(lines)
        slack = limit - line_widths
        if len(lines) > 1:
            cost = (slack[:-1] ** 2).sum()
        else:
            cost = torch.zeros(())
        return torch.tensor(line_of_word, dtype=torch.int64), line_widths, cost


def model():
    return LineBreaker().eval()


def _case(words, limit):
    return torch.tensor(words, dtype=torch.float32), torch.tensor([limit])


def example_inputs():
    return _case([3, 5, 2, 7, 4, 6], 12.5)


def dynamic_shapes():
    n = torch.export.Dim("words", min=2, max=200)
    return ({0: n}, None)


def verify_inputs():
    return [
        _case([3, 4, 2, 6, 5, 1, 8, 3], 10.5),          # several lines
        _case([2, 3], 20.5),                            # single line -> zero cost
        _case([4, 25, 3, 3, 30], 12.5),                 # overlong words, one at the end
        _case([30, 2, 2], 8.5),                         # overlong first word (cur == 0)
    ]
