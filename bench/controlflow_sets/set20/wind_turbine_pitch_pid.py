"""Wind-turbine blade pitch controller (gain-scheduled PI with operating regions).

Below cut-in the rotor idles, above cut-out the blades feather and the
integrator is frozen (keeps its previous value); in between a learned gain
schedule drives a PI loop on rotor-speed error with anti-windup.
Output: pitch trajectory [T] in degrees and the final integrator state.
"""
import torch
import torch.nn as nn


class PitchController(nn.Module):
    def __init__(self, cut_in=3.0, cut_out=25.0, rated=12.0, dt=0.1):
        super().__init__()
        self.cut_in, self.cut_out, self.rated, self.dt = cut_in, cut_out, rated, dt
        self.gain = nn.Linear(1, 2)

    def forward(self, wind):  # wind: [1, T] m/s
        integ = torch.zeros(())
        pitch = torch.zeros(())
        out = []
        for t in range(wind.shape[1]):
            v = wind[0, t]
            if v < self.cut_in:
                pitch = torch.zeros(())
            elif v > self.cut_out:
                pitch = torch.full((), 90.0)
            else:
                kp, ki = torch.nn.functional.softplus(self.gain(v.reshape(1) / 10.0)).unbind()
                err = v - self.rated
                integ = integ + ki * err * self.dt
                if integ.abs() > 5.0:
                    integ = integ.clamp(-5.0, 5.0)
                pitch = (kp * err + integ).clamp(0.0, 30.0)
            out.append(pitch)
        return torch.stack(out), integ


def _wind(vals):
    return torch.tensor(vals, dtype=torch.float32).unsqueeze(0)


def model():
    torch.manual_seed(0)
    return PitchController().eval()


def example_inputs():
    return (_wind([2.1, 4.5, 8.0, 11.2, 13.5, 15.0, 14.2, 12.6]),)


def dynamic_shapes():
    return ({1: torch.export.Dim("steps", min=2, max=600)},)


def verify_inputs():
    return [
        (_wind([1.0, 2.5]),),                                   # idle
        (_wind([20.0, 26.5, 30.1, 24.0, 22.0]),),               # storm: feather, integrator frozen
        (_wind([18.0 + 0.3 * i for i in range(30)]),),          # sustained high wind: anti-windup
    ]
