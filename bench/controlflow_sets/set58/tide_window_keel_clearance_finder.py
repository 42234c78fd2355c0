"""Pilotage planning: under-keel clearance (UKC) over a tide prediction and the longest
window in which a deep-draught ship may transit the channel.

tide: predicted height above chart datum every 10 minutes (m); vessel: draft (m), block
coefficient, planned speed (kn); chart_depth: charted channel depth (m); wind: local
observations (speed m/s, fetch km, direction cos) used by a small learned swell model.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def squat_m(block_coeff, speed_kn, confined: bool):
    # Barrass formula; a confined channel doubles the open-water squat
    s = block_coeff * speed_kn ** 2 / 100.0
    return 2.0 * s if confined else s


def required_ukc(draft, swell):
    if swell > 1.0:
        # exposed approach: the ship heaves, keep at least the swell height or 30 % of draft
        return torch.maximum(0.3 * draft, swell)
    return 0.1 * draft + 0.3


class KeelClearancePlanner(nn.Module):
    def __init__(self, confined=True, min_window_steps=3):
        super().__init__()
        self.swell_net = nn.Linear(3, 1)
        self.confined = confined
        self.min_window_steps = min_window_steps

    def keep_longer(self, best, start, end):
        length = end - start + 1
        if length >= self.min_window_steps and length > best[2]:
            return torch.tensor([start, end, length])
        return best

    def forward(self, tide, vessel, chart_depth, wind):
        n = tide.shape[0]
        if n > 72:
            # multi-day predictions: smooth the 10-minute harmonic ripple
            tide = F.avg_pool1d(tide.view(1, 1, -1), 3, stride=1, padding=1,
                                count_include_pad=False).view(-1)
        draft, cb, speed = vessel[0], vessel[1], vessel[2]
        # fetch-limited significant wave height, with a learned local correction
        swell = 0.0163 * wind[0] * wind[1].sqrt() * (1.0 + 0.3 * torch.tanh(self.swell_net(wind)[0]))
        need = required_ukc(draft, swell)
        ukc = chart_depth[0] + tide - draft - squat_m(cb, speed, self.confined)
        best = torch.tensor([-1, -1, 0])
        if (ukc < 0).all():
            return ukc, torch.zeros_like(ukc), best  # she would ground at every tide state
        go, start = [], -1
        for i in range(n):
            ok = ukc[i] >= need
            go.append(ok.float())
            if ok and start < 0:
                start = i
            elif not ok and start >= 0:
                best = self.keep_longer(best, start, i - 1)
                start = -1
        if start >= 0:
            best = self.keep_longer(best, start, n - 1)  # window still open at end of prediction
        return ukc, torch.stack(go), best


def model():
    torch.manual_seed(5805)
    return KeelClearancePlanner().eval()


def _tide(steps, mean, amp, period_steps, phase=0.0):
    t = torch.arange(steps, dtype=torch.float32)
    return mean + amp * torch.sin(2 * torch.pi * t / period_steps + phase)


def example_inputs():
    # 8 h of prediction, one high water; calm wind
    return (_tide(48, 2.0, 1.8, 74.5), torch.tensor([12.5, 0.82, 8.0]), torch.tensor([12.0]),
            torch.tensor([3.0, 5.0, 0.2]))


def dynamic_shapes():
    return ({0: torch.export.Dim("tide_steps", min=6, max=144)}, None, None, None)


def verify_inputs():
    return [
        # one window around high water, still open at the end (calm: swell <= 1 m)
        example_inputs(),
        # 24 h (> 72 steps: smoothed), two high waters: second window longer than first,
        # a short gap; gale on an exposed approach (swell > 1 m)
        (_tide(144, 2.0, 1.9, 74.5, phase=-1.0) + 0.3 * (torch.arange(144) > 80).float(),
         torch.tensor([10.0, 0.80, 6.0]), torch.tensor([11.5]), torch.tensor([18.0, 30.0, 0.9])),
        # neap tide, too deep a draft: negative UKC throughout -> early return
        (_tide(6, 0.5, 0.2, 74.5), torch.tensor([15.0, 0.85, 10.0]), torch.tensor([12.0]),
         torch.tensor([2.0, 3.0, -0.5])),
        # blips of 1-2 steps are not worth a transit; a 4-step window, then a longer one still
        # open at the end of the prediction
        (torch.tensor([2.0, 4.4, 2.0, 4.4, 4.4, 2.0, 4.4, 4.4, 4.4, 4.4, 2.0, 4.4, 4.4, 4.4, 4.4, 4.4]),
         torch.tensor([12.0, 0.80, 5.0]), torch.tensor([11.0]), torch.tensor([3.0, 5.0, 0.2])),
    ]
