"""Air-handling-unit supervisory controller with an airside economizer.

zone_temps: [Z] zone temperatures (degC), occupied: [Z] 1/0 occupancy flags
(Z dynamic), outdoor: [dry bulb degC, relative humidity 0..1],
return_air: [dry bulb degC, relative humidity 0..1].
Chooses the AHU mode (0 heating, 1 free cooling, 2 economizer + mechanical,
3 mechanical cooling, 4 ventilation only), the outdoor-air damper position and a
learned supply-fan speed.  Returns [mode, damper, fan].
"""
import torch
import torch.nn as nn
from torch.export import Dim


class EconomizerController(nn.Module):
    def __init__(self, enthalpy_mode=True):
        super().__init__()
        self.enthalpy_mode = enthalpy_mode
        self.occ_setpoint = 22.0
        self.unocc_setpoint = 27.0
        self.deadband = 0.5
        self.min_oa = 0.2
        self.low_limit = 10.0       # below this outdoor air risks freezing the coils
        self.econ_capacity = 1.5    # cooling demand (K) outdoor air alone can meet
        self.fan = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))

    @staticmethod
    def enthalpy(t, rh):
        # kJ/kg dry air, Magnus saturation pressure at sea level
        p_sat = 0.61094 * torch.exp(17.625 * t / (t + 243.04))
        w = 0.622 * rh * p_sat / (101.325 - rh * p_sat)
        return 1.006 * t + w * (2501.0 + 1.86 * t)

    def forward(self, zone_temps, occupied, outdoor, return_air):
        errors = []
        for z in range(zone_temps.shape[0]):
            sp = self.occ_setpoint if occupied[z] > 0.5 else self.unocc_setpoint
            err = zone_temps[z] - sp
            if err.abs() < self.deadband:
                err = torch.zeros(())
            errors.append(err)
        errors = torch.stack(errors)
        cooling = errors.clamp(min=0).mean()
        heating = (-errors).clamp(min=0).mean()

        oat = outdoor[0]
        h_out = self.enthalpy(outdoor[0], outdoor[1])
        h_ret = self.enthalpy(return_air[0], return_air[1])

        if heating > cooling:
            mode, damper = 0.0, torch.tensor(self.min_oa)
        elif self.enthalpy_mode and h_out < h_ret and oat > self.low_limit:
            damper = torch.clamp(cooling / self.econ_capacity, self.min_oa, 1.0)
            mode = 2.0 if cooling > self.econ_capacity else 1.0
        elif cooling > 0.2:
            mode, damper = 3.0, torch.tensor(self.min_oa)
        else:
            mode, damper = 4.0, torch.tensor(self.min_oa)

        fan = torch.sigmoid(self.fan(torch.stack([cooling, heating, damper, (h_out - h_ret) / 20]))).squeeze(-1)
        return torch.stack([torch.tensor(mode), damper, fan])


def model():
    torch.manual_seed(10)
    return EconomizerController().eval()


def example_inputs():
    return (torch.tensor([23.9, 24.6, 22.2, 26.1, 25.0, 28.4]),
            torch.tensor([1.0, 1.0, 1.0, 0.0, 1.0, 0.0]),
            torch.tensor([16.0, 0.55]), torch.tensor([24.0, 0.45]))


def dynamic_shapes():
    z = Dim("zones", min=2, max=64)
    return ({0: z}, {0: z}, None, None)


def verify_inputs():
    occ4 = torch.tensor([1.0, 1.0, 0.0, 1.0])
    return [
        example_inputs(),                                                  # mild dry outdoor air: free cooling (mode 1)
        (torch.tensor([19.0, 20.1, 18.2, 21.0]), occ4,
         torch.tensor([2.0, 0.8]), torch.tensor([20.0, 0.35])),           # cold morning: heating (mode 0)
        (torch.tensor([26.5, 27.2, 31.0, 25.9]), occ4,
         torch.tensor([18.0, 0.50]), torch.tensor([25.0, 0.50])),         # big load, cool outdoor air: econ + mechanical (2)
        (torch.tensor([25.0, 24.8, 29.5, 23.9]), occ4,
         torch.tensor([31.0, 0.60]), torch.tensor([24.5, 0.50])),         # hot humid outdoor air: mechanical cooling (3)
        (torch.tensor([22.1, 21.8, 27.2, 22.3]), occ4,
         torch.tensor([25.0, 0.40]), torch.tensor([22.5, 0.45])),         # all within deadband, warm outside: ventilation only (4)
        (torch.tensor([23.5, 24.0]), torch.tensor([1.0, 1.0]),
         torch.tensor([6.0, 0.50]), torch.tensor([23.0, 0.40])),          # cooling needed but outdoor below freeze limit: mechanical (3)
    ]
