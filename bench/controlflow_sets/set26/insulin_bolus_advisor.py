"""Meal/correction insulin bolus advisor for a CGM-connected insulin pump.

A small network personalises the insulin sensitivity factor (ISF) and carb ratio (ICR)
from the recent CGM trace; classic bolus-calculator rules then add the meal and
correction doses, subtract insulin still on board from earlier doses, react to the
glucose trend, suspend below the hypo limit and suppress tiny doses.
"""
import torch
import torch.nn as nn


class SensitivityNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 2))

    def forward(self, cgm):
        feats = torch.stack([(cgm.mean() - 140.0) / 50.0, cgm.std() / 30.0, (cgm[-1] - cgm[0]) / 50.0])
        s = torch.sigmoid(self.net(feats))
        isf = 30.0 + 40.0 * s[0]       # mg/dL per unit
        icr = 8.0 + 10.0 * s[1]        # g carbs per unit
        return isf, icr


class BolusAdvisor(nn.Module):
    def __init__(self):
        super().__init__()
        self.sens = SensitivityNet()
        self.hypo = 70.0
        self.target = 110.0
        self.insulin_duration_min = 240.0
        self.fall_rate = 2.0          # mg/dL per minute
        self.rise_rate = 2.0
        self.min_dose = 0.1
        self.max_bolus = 15.0

    def insulin_on_board(self, units, age_min):
        iob = torch.zeros(())
        for i in range(units.shape[0]):
            if age_min[i] >= self.insulin_duration_min:
                continue
            iob = iob + units[i] * (1.0 - age_min[i] / self.insulin_duration_min)
        return iob

    def forward(self, cgm, carbs_g, dose_units, dose_age_min):
        g = cgm[-1]
        if g < self.hypo:
            return torch.zeros(1), torch.tensor([0])
        # readings every 5 minutes; the trend needs 15 minutes of data
        trend = (cgm[-1] - cgm[-4]) / 15.0 if cgm.shape[0] >= 4 else torch.zeros(())
        isf, icr = self.sens(cgm)
        meal = carbs_g[0] / icr
        correction = (g - self.target) / isf if g > self.target else torch.zeros(())
        dose = meal + correction - self.insulin_on_board(dose_units, dose_age_min)
        code = 1
        if trend < -self.fall_rate and g < 120.0:
            dose = dose * 0.5
            code = 2
        elif trend > self.rise_rate or g > 250.0:
            dose = dose + 0.5
            code = 3
        dose = dose if dose > self.min_dose else torch.zeros(())
        return torch.clamp(dose, max=self.max_bolus).reshape(1), torch.tensor([code])


def model():
    torch.manual_seed(0)
    return BolusAdvisor().eval()


def _case(cgm, carbs, units, ages):
    return (torch.tensor(cgm), torch.tensor([carbs]), torch.tensor(units), torch.tensor(ages))


def example_inputs():
    return _case([140.0, 146.0, 150.0, 157.0, 160.0], 45.0, [2.0, 4.0], [300.0, 90.0])


def dynamic_shapes():
    doses = torch.export.Dim("doses", min=2, max=16)
    return ({0: torch.export.Dim("readings", min=2, max=288)}, None, {0: doses}, {0: doses})


def verify_inputs():
    return [
        _case([90.0, 78.0, 66.0], 30.0, [1.0, 2.0], [30.0, 60.0]),                    # hypo -> suspend
        _case([105.0, 102.0], 60.0, [1.0, 3.0], [250.0, 400.0]),                       # short trace, all doses expired
        _case([180.0, 160.0, 140.0, 125.0, 112.0, 100.0], 20.0, [1.5, 2.0, 1.0], [200.0, 260.0, 30.0]),  # falling fast, low
        _case([200.0, 190.0, 175.0, 160.0], 30.0, [2.0, 1.0], [100.0, 300.0]),         # falling but high: plain
        _case([120.0, 130.0, 145.0, 160.0, 172.0], 10.0, [0.5, 1.0], [20.0, 250.0]),   # rising fast
        _case([255.0, 258.0, 262.0, 264.0], 0.0, [1.0, 1.0], [120.0, 400.0]),          # high, flat
        _case([112.0, 115.0, 114.0, 113.0], 0.0, [6.0, 2.0], [30.0, 60.0]),            # lots on board -> no dose
    ]
