"""Receipt/label printer firmware: thermal history control for the print head.

Each dot of a thermal head is a resistor; a dot fired on previous lines is
still warm, so it needs less energy now, and hot neighbours leak heat into it.
The image is printed line by line; per line the strobe energy of each dot is
reduced according to a decaying per-dot heat history.  Blank lines only let
the head cool (after a long blank run the history is considered fully
reset).  Images wider than one head (384 dots) are printed by a multi-head
printer, one head (same compensation) per 384-dot strip.  A head-temperature model
(tiny MLP on ambient + duty) scales all energies.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class HeadStrip(nn.Module):
    def __init__(self, base_energy=1.0, history_gain=0.35, neighbour_gain=0.1, decay=0.6, reset_after=6):
        super().__init__()
        self.base = base_energy
        self.history_gain = history_gain
        self.neighbour_gain = neighbour_gain
        self.decay = decay
        self.reset_after = reset_after
        self.register_buffer("kernel", torch.tensor([[[1.0, 0.0, 1.0]]]))

    def forward(self, rows):
        heat = torch.zeros(rows.shape[1])
        blank_run = 0
        out = []
        for r in range(rows.shape[0]):
            line = rows[r]
            if not line.any():
                blank_run += 1
                heat = heat * self.decay
                if blank_run >= self.reset_after:
                    heat = torch.zeros_like(heat)
                out.append(torch.zeros_like(line))
                continue
            blank_run = 0
            neighbours = F.conv1d(heat[None, None], self.kernel, padding=1)[0, 0]
            energy = self.base - self.history_gain * heat - self.neighbour_gain * neighbours
            energy = energy.clamp(min=0.3) * line
            out.append(energy)
            heat = heat * self.decay + line
        return torch.stack(out)


class ThermalPrinter(nn.Module):
    def __init__(self, head_dots=384):
        super().__init__()
        self.head_dots = head_dots
        self.head = HeadStrip()
        self.temp_model = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, bitmap, ambient_c):
        duty = bitmap.mean()
        scale = 1.0 + 0.1 * torch.tanh(self.temp_model(torch.stack([ambient_c / 40.0, duty])))
        if bitmap.shape[1] > self.head_dots:
            strips = []
            for start in range(0, bitmap.shape[1], self.head_dots):
                strips.append(self.head(bitmap[:, start:start + self.head_dots]))
            energy = torch.cat(strips, dim=1)
        else:
            energy = self.head(bitmap)
        return energy * scale


def model():
    torch.manual_seed(64)
    return ThermalPrinter().eval()


def _bitmap(h, w, blank_rows=(), seed=0, density=0.3):
    g = torch.Generator().manual_seed(seed)
    img = (torch.rand(h, w, generator=g) < density).float()
    for r in blank_rows:
        img[r] = 0.0
    return img


def example_inputs():
    return _bitmap(24, 384, blank_rows=(5, 6, 7)), torch.tensor(22.0)


def dynamic_shapes():
    h = torch.export.Dim("lines", min=2, max=128)
    w = torch.export.Dim("dots", min=8, max=832)
    return ({0: h, 1: w}, None)


def verify_inputs():
    return [
        example_inputs(),                                                      # single head; short blank run (no reset)
        (_bitmap(40, 576, blank_rows=range(10, 20), seed=1), torch.tensor(5.0)),  # dual head (2 strips); long blank run -> history reset
        (_bitmap(3, 832, seed=2, density=0.8), torch.tensor(35.0)),            # 3 strips (last partial), dense, no blank lines
        (_bitmap(2, 8, blank_rows=(0, 1), seed=3), torch.tensor(30.0)),        # tiny all-blank image: every line continues
    ]
