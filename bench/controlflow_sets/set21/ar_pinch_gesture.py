"""AR glasses hand interaction: pinch detection with hysteresis on 21 hand landmarks, cursor + gesture head."""
import torch
import torch.nn.functional as F
from torch import nn


class PinchGesture(nn.Module):
    def __init__(self, on_thr=0.25, off_thr=0.35):
        super().__init__()
        self.on_thr, self.off_thr = on_thr, off_thr
        self.gesture = nn.Sequential(nn.Linear(63, 32), nn.ReLU(), nn.Linear(32, 5))

    def forward(self, lm, conf, prev_pinch):
        if conf < 0.5:
            return torch.zeros(1), torch.zeros(2), F.softmax(torch.zeros(5), -1)
        scale = (lm[9] - lm[0]).norm()
        d = (lm[4] - lm[8]).norm() / scale
        if prev_pinch > 0.5:
            pinching = d < self.off_thr
        else:
            pinching = d < self.on_thr and lm[8, 2] < lm[5, 2]   # index tip towards the camera
        cursor = 0.5 * (lm[4, :2] + lm[8, :2]) if pinching else lm[9, :2]
        norm = ((lm - lm[0]) / scale).reshape(1, 63)
        probs = F.softmax(self.gesture(norm).view(5), -1)
        return torch.full((1,), 1.0 if pinching else 0.0), cursor, probs


def model():
    torch.manual_seed(0)
    return PinchGesture().eval()


def _hand(pinch_dist, tip_z, seed):
    g = torch.Generator().manual_seed(seed)
    lm = torch.rand(21, 3, generator=g) * 0.05
    lm[0] = torch.tensor([0.50, 0.80, 0.00])
    lm[9] = torch.tensor([0.50, 0.60, 0.00])      # scale = 0.2
    lm[5] = torch.tensor([0.55, 0.62, 0.00])
    lm[4] = torch.tensor([0.60, 0.50, 0.00])
    lm[8] = torch.tensor([0.60, 0.50 - pinch_dist * 0.2, tip_z])
    return lm


def example_inputs():
    return (_hand(0.1, -0.02, 1), torch.tensor([0.9]), torch.tensor([0.0]))


def verify_inputs():
    return [
        (_hand(0.1, -0.02, 2), torch.tensor([0.2]), torch.tensor([0.0])),    # hand lost
        (_hand(0.3, -0.02, 3), torch.tensor([0.9]), torch.tensor([1.0])),    # held pinch (hysteresis)
        (_hand(0.3, -0.02, 4), torch.tensor([0.9]), torch.tensor([0.0])),    # open hand
        (_hand(0.1, 0.03, 5), torch.tensor([0.9]), torch.tensor([0.0])),     # close but tip away
        (_hand(0.5, -0.02, 6), torch.tensor([0.8]), torch.tensor([1.0])),    # release
    ]
