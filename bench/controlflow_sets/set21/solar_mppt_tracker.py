"""Solar charge controller MPPT: perturb-and-observe hill climb on a single-diode PV model with step halving."""
import torch
from torch import nn


class PVPanel(nn.Module):
    """Single-diode panel model (36 cells); temperature correction learned as a tiny residual."""

    def __init__(self):
        super().__init__()
        self.temp_corr = nn.Linear(1, 1)
        self.isc_stc = 8.5
        self.i0 = 1e-9
        self.nvt = 36 * 1.3 * 0.0257

    def forward(self, v, irr, temp):
        isc = self.isc_stc * irr / 1000.0 * (1.0 + 0.0005 * (temp - 25.0))
        vt = self.nvt * (1.0 + 0.01 * torch.tanh(self.temp_corr(temp.view(1, 1) / 50.0)).view(1))
        i = isc - self.i0 * (torch.exp(v / vt) - 1.0)
        return i


class MpptTracker(nn.Module):
    def __init__(self, k_step=0.004, min_step=0.3, max_iter=40):
        super().__init__()
        self.panel = PVPanel()
        self.k_step = k_step
        self.min_step = min_step
        self.max_iter = max_iter

    def forward(self, irr, temp, v_start):
        if irr.item() < 20.0:
            # night / heavy shade: park at the last operating point, no harvest
            return v_start.clone(), torch.zeros(1)
        v = v_start.clone()
        p = v * self.panel(v, irr, temp)
        step = self.k_step * irr   # adaptive: bigger steps in strong sun
        it = 0
        while step.abs() > self.min_step and it < self.max_iter:
            v_new = v + step
            i_new = self.panel(v_new, irr, temp)
            if i_new < 0.0:
                break   # stepped past open-circuit voltage
            p_new = v_new * i_new
            if p_new > p:
                v, p = v_new, p_new
            else:
                step = -0.5 * step
            it += 1
        return v, p


def model():
    torch.manual_seed(0)
    return MpptTracker().eval()


def example_inputs():
    return (torch.tensor([850.0]), torch.tensor([35.0]), torch.tensor([14.0]))


def verify_inputs():
    return [
        (torch.tensor([5.0]), torch.tensor([10.0]), torch.tensor([17.0])),      # night
        (torch.tensor([60.0]), torch.tensor([15.0]), torch.tensor([16.0])),     # dawn: step below minimum
        (torch.tensor([1000.0]), torch.tensor([25.0]), torch.tensor([21.3])),   # start near Voc: overshoot
        (torch.tensor([400.0]), torch.tensor([20.0]), torch.tensor([9.0])),
    ]
