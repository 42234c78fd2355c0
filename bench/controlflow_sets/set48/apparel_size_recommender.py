"""Apparel size recommender for an online shop.

For each shopper: pick the smallest size on the brand's chart whose chest fits (with ease), then
check waist/hip; if the waist does not fit, size up while possible. A learned fit-preference model
shifts the ease slightly (bounded). Orders where every shopper is shorter than 140 cm go to the
kids' chart, a separate submodule.
"""
import torch
import torch.nn as nn


def fits(meas, row, ease):
    chest_ok = meas[0] + ease <= row[0]
    waist_ok = meas[1] + 0.5 * ease <= row[1]
    hip_ok = meas[2] <= row[2] + 2.0
    return chest_ok and (waist_ok or hip_ok)


class KidsChart(nn.Module):
    def __init__(self):
        super().__init__()
        # kids sizes by height band (cm): 98, 110, 122, 134
        self.register_buffer("heights", torch.tensor([104.0, 116.0, 128.0]))

    def forward(self, meas):
        return torch.bucketize(meas[:, 3].contiguous(), self.heights).float() + 100.0


class SizeRecommender(nn.Module):
    def __init__(self, slim_fit=True):
        super().__init__()
        self.slim_fit = slim_fit
        self.kids = KidsChart()
        self.pref = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
        # XS .. XXL : chest, waist, hip (cm, garment)
        self.register_buffer("chart", torch.tensor([
            [88.0, 74.0, 92.0], [94.0, 80.0, 98.0], [100.0, 86.0, 104.0],
            [106.0, 92.0, 110.0], [112.0, 98.0, 116.0], [120.0, 106.0, 124.0]]))

    def forward(self, meas):
        # meas: (B, 4) chest, waist, hip, height in cm
        if meas[:, 3].max() < 140:
            return self.kids(meas)
        base_ease = 4.0 if self.slim_fit else 8.0
        ease = base_ease + 0.5 * torch.tanh(self.pref(meas / 100.0)).squeeze(1)
        out = []
        for b in range(meas.shape[0]):
            choice = torch.tensor(-1.0)  # -1: outside the chart
            for s in range(self.chart.shape[0]):
                if meas[b, 0] + ease[b] > self.chart[s, 0]:
                    continue
                choice = torch.tensor(float(s))
                if not fits(meas[b], self.chart[s], ease[b]) and s + 1 < self.chart.shape[0]:
                    choice = torch.tensor(float(s + 1))
                break
            out.append(choice)
        return torch.stack(out)


def model():
    torch.manual_seed(48009)
    return SizeRecommender().eval()


def example_inputs():
    return (torch.tensor([
        [88.0, 76.0, 95.0, 178.0],    # chest (+ease ~4) fits S (94), waist fits -> S
        [99.0, 95.0, 108.0, 182.0],   # chest fits L (106), waist too big but hip ok -> L
        [94.0, 90.0, 110.0, 170.0],   # chest fits M (100), waist and hip both fail -> size up to L
        [125.0, 110.0, 120.0, 190.0], # bigger than the chart -> -1
    ]),)


def dynamic_shapes():
    return ({0: torch.export.Dim("shoppers", min=2, max=32)},)


def verify_inputs():
    return [
        example_inputs(),  # first-fit loop with continue/break, fits() true/false (and/or), off-chart
        (torch.tensor([[60.0, 55.0, 62.0, 110.0], [56.0, 52.0, 58.0, 100.0]]),),  # all kids -> kids chart
        (torch.tensor([[114.0, 108.0, 128.0, 186.0], [80.0, 68.0, 86.0, 165.0]]),),  # XXL with bad fit, no larger size; XS
    ]
