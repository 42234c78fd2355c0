"""OCR post-processing: word boxes from a text detector are ordered top-to-bottom,
left-to-right and merged into text lines (same baseline band, small horizontal gap).
Low-confidence words are dropped. Box: [x0, y0, x1, y1, conf]."""
import torch
from torch import nn


class LineMerger(nn.Module):
    def __init__(self):
        super().__init__()
        self.conf_head = nn.Linear(5, 1)     # recalibrates detector confidence
        self.min_conf = 0.3
        self.max_gap = 1.5                  # in units of line height

    def same_line(self, line, box):
        h = line[3] - line[1]
        yc_line = 0.5 * (line[1] + line[3])
        yc_box = 0.5 * (box[1] + box[3])
        if (yc_box - yc_line).abs() > 0.5 * h:
            return False
        gap = box[0] - line[2]
        return bool(gap < self.max_gap * h)

    def forward(self, words):
        # words: (N, 5)
        if words.shape[0] <= 2:
            # too few words to be worth reordering: one line per word
            return words[:, :4], torch.arange(words.shape[0])
        conf = torch.sigmoid(torch.logit(words[:, 4].clamp(0.01, 0.99)) + 0.1 * self.conf_head(words / 100.0)[:, 0])
        yc = 0.5 * (words[:, 1] + words[:, 3])
        row = torch.round(yc / 20.0)
        order = torch.argsort(row * 10000.0 + words[:, 0])
        lines = []
        line_id = []
        cur = None
        for k in range(words.shape[0]):
            idx = order[k]
            if conf[idx] < self.min_conf:
                continue
            box = words[idx, :4]
            if cur is not None and self.same_line(cur, box):
                cur = torch.cat([torch.minimum(cur[:2], box[:2]), torch.maximum(cur[2:], box[2:])])
            else:
                if cur is not None:
                    lines.append(cur)
                cur = box
            line_id.append(torch.tensor(len(lines)))
        if cur is None:
            return torch.zeros(0, 4), torch.zeros(0, dtype=torch.long)
        lines.append(cur)
        return torch.stack(lines), torch.stack(line_id)


def model():
    torch.manual_seed(0)
    return LineMerger().eval()


def example_inputs():
    return (torch.tensor([[120.0, 10.0, 180.0, 30.0, 0.9],
                          [10.0, 11.0, 100.0, 31.0, 0.95],
                          [195.0, 9.0, 260.0, 29.0, 0.8],
                          [10.0, 50.0, 90.0, 70.0, 0.9],
                          [300.0, 51.0, 340.0, 71.0, 0.7],
                          [100.0, 52.0, 150.0, 72.0, 0.1]]),)


def dynamic_shapes():
    return ({0: torch.export.Dim("N", min=2, max=256)},)


def verify_inputs():
    return [
        (torch.tensor([[10.0, 10.0, 50.0, 30.0, 0.9], [60.0, 10.0, 90.0, 30.0, 0.9]]),),   # two words
        (torch.tensor([[10.0, 10.0, 50.0, 30.0, 0.05], [60.0, 10.0, 90.0, 30.0, 0.1],
                       [10.0, 50.0, 50.0, 70.0, 0.02]]),),                                 # all dropped
        (torch.tensor([[10.0, 10.0, 50.0, 30.0, 0.9], [55.0, 12.0, 90.0, 32.0, 0.9],
                       [94.0, 14.0, 130.0, 34.0, 0.9], [10.0, 90.0, 60.0, 110.0, 0.9]]),),
    ]
