"""Three-element drum level control for a utility boiler with shrink/swell compensation."""
import torch
import torch.nn as nn
from torch.export import Dim

LOW_LOW_TRIP = -0.25   # m below normal water level -> burner trip
HIGH_HIGH_ALARM = 0.20  # m above NWL -> carry-over risk


def slew_limit(cmd, last, max_rate):
    """Feedwater valve actuator can only move max_rate per scan."""
    step = cmd - last
    if step.abs() > max_rate:
        return last + max_rate * torch.sign(step)
    return cmd


class SwellEstimator(nn.Module):
    """Learned estimate of the apparent level rise caused by a steam demand step."""

    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, scan):
        return 0.05 * torch.sigmoid(self.net(scan)).squeeze(-1)


class DrumLevelController(nn.Module):
    def __init__(self, three_element=True, min_scans_for_flow=8):
        super().__init__()
        self.three_element = three_element
        self.min_scans_for_flow = min_scans_for_flow
        self.swell = SwellEstimator()
        self.kp, self.ki, self.kf = 1.5, 0.2, 0.5
        self.max_rate = 0.08

    def forward(self, readings):
        # readings: (T, 3) per scan -> drum level [m vs NWL], steam flow, feed flow [p.u.]
        level = readings[:, 0]
        if (level < LOW_LOW_TRIP).any():
            # low-low level: the BMS trips the burners, valve goes wide open from the start
            first = torch.nonzero(level < LOW_LOW_TRIP)[0, 0]
            return torch.ones(readings.shape[0]), first
        # flow elements are only trusted once the flow transmitters have settled
        use_flow = self.three_element and readings.shape[0] >= self.min_scans_for_flow
        valve = readings[0, 2].clamp(0.0, 1.0)
        integ = torch.zeros(())
        cmds = []
        for t in range(readings.shape[0]):
            lvl, steam, feed = readings[t, 0], readings[t, 1], readings[t, 2]
            if t > 0 and steam - readings[t - 1, 1] > 0.1 and lvl > readings[t - 1, 0]:
                lvl = lvl - self.swell(readings[t])  # do not cut feed on swell
            err = -lvl
            integ = (integ + self.ki * err).clamp(-0.5, 0.5)
            if use_flow:
                cmd = steam + self.kp * err + integ + self.kf * (steam - feed)
            else:
                cmd = 0.5 + self.kp * err + integ
            valve = slew_limit(cmd.clamp(0.0, 1.0), valve, self.max_rate)
            cmds.append(valve)
        alarms = (level > HIGH_HIGH_ALARM).sum()
        return torch.stack(cmds), alarms


def model():
    torch.manual_seed(6001)
    return DrumLevelController().eval()


def _scans(T, seed, step_at=None, dip=0.0):
    g = torch.Generator().manual_seed(seed)
    level = 0.03 * torch.randn(T, generator=g).cumsum(0) * 0.3
    steam = 0.6 + 0.01 * torch.randn(T, generator=g)
    if step_at is not None:
        steam[step_at:] += 0.25
        level[step_at:] += 0.04  # swell
    level = level - dip * torch.linspace(0, 1, T)
    feed = steam + 0.02 * torch.randn(T, generator=g)
    return (torch.stack([level, steam, feed], 1),)


def example_inputs():
    return _scans(24, 1, step_at=10)


def dynamic_shapes():
    return ({0: Dim("scans", min=4, max=64)},)


def verify_inputs():
    return [
        _scans(24, 1, step_at=10),  # example: three-element control, swell compensated at scan 10
        _scans(4, 2),               # min scans: single-element fallback, no steam step
        _scans(64, 3, step_at=30),  # max scans: swell + long run, slew limiting both ways
        _scans(12, 4, dip=0.5),     # level falls below low-low -> trip, early return
    ]
