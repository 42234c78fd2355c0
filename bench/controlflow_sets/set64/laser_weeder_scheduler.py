"""Laser weeding robot: choose and order weed shots for one camera frame.

Detections come from the upstream detector as rows (x_mm, y_mm, confidence,
size_mm, class) with class 0 = weed, 1 = crop.  The gantry repeatedly moves to
the most urgent remaining confident weed; weeds too close to a crop plant are
skipped (the beam would scorch the crop); dwell time grows with weed size;
shooting stops when the time budget for this frame (the tractor keeps
moving) would be exceeded.  The next target is the remaining weed with the
highest priority: big weeds compete most with the crop, far ones cost travel.
"""
import torch
import torch.nn as nn


def pairwise_dist(a, b):
    return (a[:, None, :] - b[None, :, :]).norm(dim=-1)


class CropGuard(nn.Module):
    def __init__(self, clearance_mm=25.0):
        super().__init__()
        self.clearance = clearance_mm

    def forward(self, target_xy, crops_xy):
        if crops_xy.shape[0] == 0:
            return torch.tensor(False)
        d = pairwise_dist(target_xy[None], crops_xy)
        return (d < self.clearance).any()


class LaserWeeder(nn.Module):
    def __init__(self, conf_thr=0.5, speed_mm_s=400.0, budget_s=0.6, travel_scale_mm=100.0):
        super().__init__()
        self.travel_scale = travel_scale_mm
        self.conf_thr = conf_thr
        self.speed = speed_mm_s
        self.budget = budget_s
        self.guard = CropGuard()

    def _dwell(self, size_mm):
        if size_mm < 5.0:
            return torch.tensor(0.03)
        elif size_mm < 15.0:
            return 0.03 + 0.004 * (size_mm - 5.0)
        return torch.tensor(0.08)

    def forward(self, dets):
        xy, conf, size = dets[:, :2], dets[:, 2], dets[:, 3]
        cls = dets[:, 4].round().long()
        crops = xy[cls == 1]
        todo = (cls == 0) & (conf > self.conf_thr)
        pos = torch.zeros(2)
        t = torch.zeros(())
        shots = []
        skipped = torch.zeros((), dtype=torch.long)
        while todo.any():
            d = (xy - pos).norm(dim=1)
            priority = size / (1.0 + d / self.travel_scale)
            priority = torch.where(todo, priority, torch.full_like(priority, -1.0))
            j = priority.argmax()
            todo[j] = False
            if self.guard(xy[j], crops):
                skipped = skipped + 1
                continue
            cost = d[j] / self.speed + self._dwell(size[j])
            if t + cost > self.budget:
                break
            t = t + cost
            pos = xy[j]
            shots.append(j)
        order = torch.stack(shots) if shots else torch.zeros(0, dtype=torch.long)
        return order, t, skipped


def model():
    torch.manual_seed(64)
    return LaserWeeder().eval()


def _dets(rows):
    return torch.tensor(rows, dtype=torch.float32)


def example_inputs():
    return (_dets([
        [30.0, 20.0, 0.9, 3.0, 0],     # small weed, nearest
        [70.0, 30.0, 0.8, 10.0, 0],    # medium weed
        [100.0, 45.0, 0.95, 0.0, 1],   # crop
        [110.0, 50.0, 0.9, 8.0, 0],    # weed next to the crop -> skipped
        [150.0, 10.0, 0.3, 6.0, 0],    # low confidence, ignored
        [120.0, 80.0, 0.7, 20.0, 0],   # large weed
    ]),)


def dynamic_shapes():
    n = torch.export.Dim("detections", min=2, max=128)
    return ({0: n},)


def verify_inputs():
    many = torch.stack([torch.tensor([20.0 + 37.0 * k, 15.0 + (k % 3) * 30.0, 0.9, 12.0, 0.0]) for k in range(24)])
    return [
        example_inputs(),   # large weed first (big dwell), crop-adjacent weed skipped (continue), medium weed over budget -> break
        (many,),            # no crops (guard early return), three medium weeds shot, then budget runs out -> break
        (_dets([[50.0, 50.0, 0.9, 0.0, 1], [60.0, 40.0, 0.4, 4.0, 0]]),),  # nothing to do: while runs 0 times, empty order
        (_dets([[40.0, 30.0, 0.8, 2.0, 0], [300.0, 0.0, 0.9, 1.0, 1]]),),  # single small weed, crop far away: one shot, then todo is empty (loop ends normally)
    ]
