"""Target archery scorer (122 cm ten-zone face, line-cutter rule).

Arrow impacts (cm from centre) are scored 10..1, X for the inner ten, M for misses. More than six
arrows are scored as consecutive ends of six. A small learned head rates grouping tightness.
"""
import torch
import torch.nn as nn


class ArcheryScorer(nn.Module):
    def __init__(self, face_radius=61.0, arrows_per_end=6, shaft_radius=0.28):
        super().__init__()
        self.face_radius = face_radius
        self.ring = face_radius / 10.0
        self.arrows_per_end = arrows_per_end
        self.shaft_radius = shaft_radius
        self.group_head = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 1))

    def score_end(self, impacts):
        total = torch.zeros(())
        xs = torch.zeros(())
        for i in range(impacts.shape[0]):
            # line cutter: the arrow scores the higher zone if its shaft touches the line
            r = torch.linalg.vector_norm(impacts[i]) - self.shaft_radius
            if r > self.face_radius:
                continue  # miss
            if r < self.ring / 2:
                xs = xs + 1
            total = total + torch.clamp(10.0 - torch.floor(torch.clamp(r, min=0.0) / self.ring), min=1.0)
        return total, xs

    def forward(self, impacts):
        if impacts.shape[0] > self.arrows_per_end:
            ends = []
            xs = torch.zeros(())
            for chunk in impacts.split(self.arrows_per_end):
                t, x = self.score_end(chunk)
                ends.append(t)
                xs = xs + x
            end_totals = torch.stack(ends)
        else:
            t, xs = self.score_end(impacts)
            end_totals = t.reshape(1)
        spread = impacts.std(dim=0)
        grouping = torch.sigmoid(self.group_head(spread / 10.0)).squeeze()
        return end_totals.sum(), xs, grouping


def model():
    torch.manual_seed(48010)
    return ArcheryScorer().eval()


def example_inputs():
    return (torch.tensor([[1.0, 1.5], [4.0, -3.0], [-9.0, 2.0], [15.0, 14.0], [70.0, 3.0], [0.5, -0.2]]),)


def dynamic_shapes():
    return ({0: torch.export.Dim("arrows", min=2, max=72)},)


def verify_inputs():
    g = torch.Generator().manual_seed(3)
    ring_mid = (torch.arange(14) % 10).float() * 6.1 + 2.0 + 0.28  # radii 1/3 into each zone (away from lines and the X ring edge)
    ang = torch.rand(14, generator=g) * 6.283
    many = torch.stack([ring_mid * torch.cos(ang), ring_mid * torch.sin(ang)], dim=1)
    return [
        example_inputs(),  # one end of six: X hits, tens, nines..., one miss (continue)
        (many,),           # 14 arrows > 6 -> split into ends (6, 6, 2); no misses
        (torch.tensor([[80.0, 0.0], [0.0, -75.0]]),),  # two misses, min size
    ]
