"""ICU sepsis early-warning: SIRS screening state machine + learned risk (kind X).

Input: hourly vitals/labs (T, 5) = (heart rate, temperature C, respiratory rate, WBC
10^9/L, lactate mmol/L); a negative value means "not measured this hour".  Every hour
the SIRS criteria are counted by a helper (and/or on tensor comparisons).  Hours where a
core vital sign is missing are skipped.  An alert is raised (and the scan stops) after
`confirm_hours` consecutive hours with >= 2 SIRS criteria and raised lactate.  A GRU risk
model (submodule, which looks at the last 24 hours at most and handles an unmeasured
lactate) scores the history up to the alert.

constructs: 1 (if on tensor comparisons), 2 (variable assigned in one branch),
            3 (and / or on tensor predicates), 5 (for over dynamic T, list + torch.stack),
            6 (continue / break on tensor conditions), 7 (helper function, submodule with
            its own control flow), 8 (branch on a data-dependent history length)
"""
import torch
import torch.nn as nn

HR, TEMP, RR, WBC, LACTATE = range(5)


def sirs_count(v):
    count = 0
    if v[HR] > 90:
        count += 1
    if v[TEMP] > 38.0 or v[TEMP] < 36.0:
        count += 1
    if v[RR] > 20:
        count += 1
    if v[WBC] > 12.0 or (v[WBC] >= 0 and v[WBC] < 4.0):
        count += 1
    return count


class SepsisRisk(nn.Module):
    def __init__(self, hidden=16, max_hours=24):
        super().__init__()
        self.max_hours = max_hours
        self.scale = nn.Parameter(torch.tensor([1 / 100.0, 1 / 37.0, 1 / 20.0, 1 / 10.0, 1 / 2.0]),
                                  requires_grad=False)
        self.gru = nn.GRU(5, hidden, batch_first=True)
        self.head = nn.Linear(hidden, 1)

    def forward(self, history):
        if history.shape[0] > self.max_hours:
            history = history[-self.max_hours:]
        x = history.clamp(min=0) * self.scale
        if (history[:, LACTATE] < 0).all():
            x[:, LACTATE] = 0.5          # never measured: assume normal
        out, _ = self.gru(x.unsqueeze(0))
        return torch.sigmoid(self.head(out[0, -1])).squeeze()


class SepsisWatch(nn.Module):
    def __init__(self, confirm_hours=3, lactate_high=2.0):
        super().__init__()
        self.confirm_hours = confirm_hours
        self.lactate_high = lactate_high
        self.risk = SepsisRisk()

    def forward(self, vitals):
        counts = []
        streak = 0
        alert_hour = torch.tensor(-1)
        upto = vitals.shape[0]
        for t in range(vitals.shape[0]):
            v = vitals[t]
            if (v[:RR + 1] < 0).any():
                counts.append(torch.tensor(-1.0))
                continue
            c = sirs_count(v)
            counts.append(torch.tensor(float(c)))
            if c >= 2 and v[LACTATE] > self.lactate_high:
                streak += 1
            else:
                streak = 0
            if streak >= self.confirm_hours:
                alert_hour = torch.tensor(t)
                upto = t + 1
                break
        risk = self.risk(vitals[:upto])
        return risk, alert_hour, torch.stack(counts)


def model():
    torch.manual_seed(316)
    return SepsisWatch().eval()


def _stay(rows):
    return (torch.tensor(rows, dtype=torch.float32),)


NORMAL = [72, 36.8, 14, 8.0, -1]
SEPTIC = [118, 38.9, 26, 15.5, 3.4]


def example_inputs():
    return _stay([NORMAL, [80, 37.2, 16, 9.0, 1.1], [95, 38.4, 22, 13.0, 2.6], SEPTIC,
                  [-1, -1, -1, -1, -1], SEPTIC, [120, 35.5, 24, 3.0, 4.0], NORMAL])


def dynamic_shapes():
    return ({0: torch.export.Dim("hours", min=2, max=336)},)


def verify_inputs():
    long_ok = [NORMAL] * 20 + [[72, 36.8, 14, -1, -1]] * 2 + [[92, 37.0, 18, 10.0, 1.0]] * 8 \
        + [[70, 35.8, 22, 3.5, 0.9]] * 6
    return [
        example_inputs(),          # hour 4 missing -> continue (streak kept); streak 1,2,3 -> alert at hour 5 (break), history 6h
        _stay([NORMAL, NORMAL]),   # 2h, no SIRS, lactate never measured (all <0 -> default)
        _stay(long_ok),            # 36h: >24h history trimmed; WBC missing hours; SIRS 3 but lactate normal -> no alert
        _stay([SEPTIC] * 30),      # alert after 3 hours (break), history 3h
        _stay([SEPTIC, SEPTIC, [-1, 37.0, 18, -1, -1], [85, 36.5, 16, 4.5, 2.5], SEPTIC, SEPTIC]),
        # missing-HR hour skipped; SIRS-0 hour resets the streak at 2; ends with streak 2: no alert
    ]
