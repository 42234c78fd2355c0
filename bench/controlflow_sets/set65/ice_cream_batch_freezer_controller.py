"""Batch ice-cream freezer: decides when to draw the batch.

The mix is cooled by the refrigerated barrel while the dasher motor torque is logged.  Each
control tick the controller updates the mix temperature (Newton cooling plus latent heat once
ice forms), estimates the ice fraction from temperature and the measured torque, and keeps
churning while the mix is warmer than the draw temperature and the overrun (air incorporated)
is still below target.  A torque spike above the motor limit stops the dasher (over-frozen /
jammed batch).  The result is the draw status, final temperature and ice fraction.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class BatchFreezerController(nn.Module):
    def __init__(self, draw_temp=-5.5, freeze_point=-2.5, barrel_temp=-25.0, k_cool=0.01,
                 torque_limit=9.0):
        super().__init__()
        self.draw_temp = draw_temp
        self.freeze_point = freeze_point
        self.barrel_temp = barrel_temp
        self.k_cool = k_cool
        self.torque_limit = torque_limit
        self.ice_net = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, torque, mix_temp, overrun_target):
        temp = mix_temp
        overrun = torch.zeros(())
        ice = torch.zeros(())
        step = 0
        jammed = torch.zeros(())
        while temp > self.draw_temp and overrun < overrun_target and step < torque.shape[0]:
            cooling = self.k_cool * (temp - self.barrel_temp)
            if temp < self.freeze_point:
                # latent heat slows the temperature drop once ice crystals form
                cooling = cooling * 0.35
            temp = temp - cooling
            ice = torch.sigmoid(self.ice_net(torch.stack([temp / 10.0, torque[step] / 10.0]))).squeeze(0)
            overrun = overrun + 0.012 * (1.0 - ice)
            if torque[step] > self.torque_limit:
                jammed = torch.ones(())
                break
            step += 1
        drawn = (temp <= self.draw_temp).float()
        return torch.stack([drawn, jammed]), temp, ice, overrun


def model():
    torch.manual_seed(659)
    return BatchFreezerController().eval()


def _torque(n, end_level, spike_at=None):
    t = torch.linspace(0, 1, n)
    tq = 2.0 + (end_level - 2.0) * t ** 2 + 0.1 * torch.sin(37.0 * t)
    if spike_at is not None:
        tq[spike_at] = 12.0
    return tq


def example_inputs():
    return (_torque(200, 7.0), torch.tensor(4.0), torch.tensor(0.9))


def dynamic_shapes():
    return ({0: Dim("ticks", min=4, max=4096)}, None, None)


def verify_inputs():
    return [
        example_inputs(),                                              # cools below freeze point and reaches draw temp
        (_torque(200, 7.0), torch.tensor(4.0), torch.tensor(0.2)),    # overrun target reached first (still warm)
        (_torque(200, 8.0, spike_at=20), torch.tensor(6.0), torch.tensor(0.9)),  # torque spike -> break (jammed)
        (_torque(10, 5.0), torch.tensor(5.0), torch.tensor(0.9)),     # log ends before draw temperature (step limit)
        (_torque(50, 5.0), torch.tensor(-6.0), torch.tensor(0.9)),    # mix already colder than draw temp: loop runs 0 times
    ]
