"""Weight-based unfractionated heparin infusion: aPTT nomogram with a trend model.

The pharmacy protocol (Raschke-style) maps the latest aPTT to a bolus, an
infusion-rate change and an optional hold.  A GRU over the patient's aPTT
history (variable number of lab draws) predicts the next aPTT so the ward sees
where the patient is heading.  Active bleeding stops the infusion outright.
"""
import torch
import torch.nn as nn


class HeparinNomogram(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = nn.GRUCell(2, 16)
        self.head = nn.Linear(16, 1)
        self.therapeutic = (46.0, 70.0)

    def dose_step(self, aptt):
        # returns (bolus u/kg, rate change u/kg/h, hold minutes)
        if aptt < 35.0:
            return 80.0, 4.0, 0.0
        elif aptt < 46.0:
            return 40.0, 2.0, 0.0
        elif aptt <= 70.0:
            return 0.0, 0.0, 0.0
        elif aptt <= 90.0:
            return 0.0, -2.0, 0.0
        else:
            return 0.0, -3.0, 60.0

    def trend(self, aptt_history):
        h = torch.zeros(1, 16)
        states = []
        for i in range(aptt_history.shape[0]):
            step = torch.stack([aptt_history[i] / 100.0, torch.tensor(float(i) / 24.0)]).unsqueeze(0)
            h = self.cell(step, h)
            states.append(h)
        hs = torch.cat(states, dim=0)
        return aptt_history[-1] + 10.0 * torch.tanh(self.head(hs[-1]))

    def forward(self, aptt_history, patient):
        # aptt_history: (K,) seconds, oldest first; patient: (3,) weight kg, rate u/kg/h, bleeding 0/1
        weight, rate, bleeding = patient[0], patient[1], patient[2]
        predicted = self.trend(aptt_history)
        if bleeding > 0.5:
            # stop the drip, no bolus, call the physician; recheck in 1 h
            return torch.zeros(1), torch.zeros(1), torch.tensor([60.0]), torch.tensor([1.0]), predicted

        last = aptt_history[-1]
        bolus_per_kg, delta, hold = self.dose_step(last)
        new_rate = (rate + delta).clamp(min=0.0).reshape(1)
        bolus = (bolus_per_kg * weight).clamp(max=10000.0).reshape(1)

        lo, hi = self.therapeutic
        recent = aptt_history[-2:]
        if ((recent >= lo) & (recent <= hi)).all() and not bool(bleeding > 0.5):
            next_check = torch.tensor([24.0])   # two therapeutic values in a row
        else:
            next_check = torch.tensor([6.0])
        return new_rate, bolus, torch.tensor([hold]), next_check, predicted


def model():
    torch.manual_seed(5603)
    return HeparinNomogram().eval()


def example_inputs():
    return (torch.tensor([31.0, 44.5, 58.2, 63.7]), torch.tensor([82.0, 18.0, 0.0]))


def dynamic_shapes():
    k = torch.export.Dim("draws", min=2, max=48)
    return ({0: k}, None)


def verify_inputs():
    g = torch.Generator().manual_seed(3)
    long_hist = 50.0 + 15.0 * torch.rand(48, generator=g)
    long_hist[-1] = 97.3
    return [
        # 4 draws, last two therapeutic -> no change, recheck in 24 h
        example_inputs(),
        # min 2 draws, sub-therapeutic 29.4 -> 80 u/kg bolus, +4, recheck 6 h
        (torch.tensor([33.1, 29.4]), torch.tensor([95.0, 18.0, 0.0])),
        # 3 draws, 41.8 -> 40 u/kg bolus, +2
        (torch.tensor([30.2, 36.6, 41.8]), torch.tensor([70.0, 20.0, 0.0])),
        # 5 draws, 83.2 -> decrease by 2
        (torch.tensor([40.0, 55.0, 66.1, 71.5, 83.2]), torch.tensor([64.0, 22.0, 0.0])),
        # max 48 draws, last 97.3 -> hold 60 min, decrease by 3
        (long_hist, torch.tensor([110.0, 16.0, 0.0])),
        # bleeding -> early return, infusion stopped
        (torch.tensor([62.0, 75.5, 88.0]), torch.tensor([77.0, 18.0, 1.0])),
    ]
