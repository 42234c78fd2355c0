"""WHO partograph for labour monitoring: cervical dilation against the alert line (1 cm/h from
the first active-phase exam) and the action line 4 h to its right, plus hourly fetal heart
rate review with a learned deceleration detector."""
import torch
import torch.nn as nn
from torch.export import Dim

LATENT, ACTIVE, ALERT, ACTION, SECOND_STAGE, PROLONGED_LATENT = range(6)


def charting_error(exams, k):
    """Exam out of time order, or dilation 'regressing' by more than 1 cm: ignore it."""
    if k == 0:
        return False
    prev = exams[k - 1]
    return bool(exams[k, 0] <= prev[0]) or bool(exams[k, 1] < prev[1] - 1.0)


class PartographTracker(nn.Module):
    def __init__(self, active_cm=4.0, latent_limit_h=8.0, action_offset_h=4.0):
        super().__init__()
        self.active_cm, self.latent_limit_h = active_cm, latent_limit_h
        self.action_offset_h = action_offset_h
        self.decel = nn.Conv1d(1, 1, kernel_size=5, padding=2)

    def fhr_review(self, fhr):
        """0 reassuring, 1 abnormal baseline, 2 decelerations; reviewed hour by hour."""
        learned = torch.tanh(self.decel(((fhr - 140.0) / 20.0).view(1, 1, -1))).view(-1)
        i = 0
        while i + 4 <= fhr.shape[0]:  # 4 samples = one hour at 15 min spacing
            hour = fhr[i:i + 4]
            base = hour.mean()
            if base < 110 or base > 160:
                return 1
            drop = base - hour.min()
            if torch.sigmoid((drop - 15.0) / 3.0 + 0.5 * learned[i:i + 4].max()) > 0.5:
                return 2
            i += 4
        return 0

    def forward(self, exams, fhr):
        # exams (N, 3): hours since admission, dilation cm, station; fhr (M,) bpm every 15 min
        state, t0, d0 = LATENT, None, None
        for k in range(exams.shape[0]):
            if charting_error(exams, k):
                continue
            t, d = exams[k, 0], exams[k, 1]  # last valid exam after the loop
            if state == LATENT:
                if d >= self.active_cm:
                    state, t0, d0 = ACTIVE, t, d
                elif t > self.latent_limit_h:
                    state = PROLONGED_LATENT
                    break
            elif d >= 10.0:
                state = SECOND_STAGE
                break
            elif d < d0 + (t - t0) - self.action_offset_h:
                state = ACTION  # right of the action line: obstetric intervention now
                break
            elif d < d0 + (t - t0):
                state = ALERT
        if state in (ACTIVE, ALERT):
            hours_left = t0 + self.action_offset_h + (d - d0) - t
        else:
            hours_left = torch.zeros(())
        return torch.tensor(state), hours_left, torch.tensor(self.fhr_review(fhr))


def model():
    torch.manual_seed(6020)
    return PartographTracker().eval()


def _labour(rows, m, seed, base=140.0, decel_at=None):
    g = torch.Generator().manual_seed(seed)
    fhr = base + 4.0 * torch.randn(m, generator=g)
    if decel_at is not None:
        fhr[decel_at] -= 35.0
    return torch.tensor(rows, dtype=torch.float32), fhr


def example_inputs():
    return _labour([[0, 3, -2], [2, 4, -2], [4, 6, -1], [6, 8, 0], [7, 9, 0]], 28, 1)


def dynamic_shapes():
    return ({0: Dim("exams", min=2, max=16)}, {0: Dim("fhr_samples", min=4, max=96)})


def verify_inputs():
    slow = [[0, 2, -3], [2, 3, -3]] + [[3 + k, 4 + 0.25 * k, -2] for k in range(14)]
    return [
        _labour([[0, 3, -2], [2, 4, -2], [4, 6, -1], [6, 8, 0], [7, 9, 0]], 28, 1),  # example
        _labour([[0, 2, -3], [9, 3, -3]], 4, 2),                     # min: prolonged latent
        _labour(slow, 96, 3, decel_at=70),                           # max: action line, decel
        _labour([[0, 5, -1], [3, 8, 0], [4, 10, 1]], 12, 4, base=170.0),  # full: tachycardia
        _labour([[0, 4, -2], [3, 6, -2], [2, 7, -1], [4, 5, -1], [5, 3, -1]], 8, 5),  # alert,
        # ... with an out-of-order exam and a regressed dilation skipped as charting errors
        _labour([[0, 1, -3], [3, 2, -3], [6, 3, -3]], 6, 6, base=100.0),  # latent, bradycardia
    ]
