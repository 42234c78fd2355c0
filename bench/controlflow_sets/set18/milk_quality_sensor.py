"""Inline milk-quality sensor (conductivity, temperature, somatic-cell proxy spectra) -> grade.
Rejects obviously spoiled batches early; grades the rest A/B/C."""
import torch
from torch import nn

BANDS = 12


class MilkGrader(nn.Module):
    def __init__(self, calibrate=False):
        super().__init__()
        self.calibrate = calibrate
        self.spec = nn.Sequential(nn.Linear(BANDS, 32), nn.ReLU(), nn.Linear(32, 3))
        self.offset = nn.Parameter(torch.zeros(3))

    def forward(self, spectrum, temp_c, conductivity):
        # spectrum: (N, BANDS) readings of one batch; temp_c, conductivity: (1,)
        if self.calibrate:  # static
            spectrum = spectrum - spectrum.mean(dim=0, keepdim=True)
        if temp_c.item() > 10.0 or conductivity.item() > 7.5:
            # cold chain broken or mastitis: reject, grade = 3 (reject)
            return torch.tensor(3), torch.zeros(3)
        logits = self.spec(spectrum).mean(dim=0) + self.offset
        probs = torch.softmax(logits, dim=0)
        quality = spectrum.mean()
        if quality.item() > 0.5:
            grade = torch.tensor(0)
        elif quality.item() > -0.5:
            grade = torch.tensor(1)
        else:
            grade = torch.tensor(2)
        if self.training:  # static
            probs = probs * 1.0
        return grade, probs


def model():
    torch.manual_seed(0)
    return MilkGrader().eval()


def example_inputs():
    return (torch.full((5, BANDS), 1.0), torch.tensor([4.0]), torch.tensor([5.0]))


def dynamic_shapes():
    return ({0: torch.export.Dim("readings", min=2, max=64)}, None, None)


def verify_inputs():
    return [
        (torch.full((5, BANDS), 0.0), torch.tensor([12.0]), torch.tensor([5.0])),   # warm: reject
        (torch.full((3, BANDS), 0.0), torch.tensor([4.0]), torch.tensor([8.0])),    # high conductivity
        (torch.full((9, BANDS), 0.1), torch.tensor([4.0]), torch.tensor([5.0])),    # grade B
        (torch.full((2, BANDS), -1.0), torch.tensor([3.0]), torch.tensor([6.0])),   # grade C
    ]
