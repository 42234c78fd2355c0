"""Emergency department flow: score each arriving patient's triage vitals (NEWS-like early
warning score) and place them in resus, acute or fast-track beds; declare ambulance diversion
when the waiting room overflows.

Kind T. Constructs: 1 2 3 5 6 7
"""
import torch
import torch.nn as nn

RESUS, ACUTE, FAST_TRACK, WAITING, NOT_SEEN, DIVERTED = 0, 1, 2, 3, 4, 5


class BedAssigner(nn.Module):
    def __init__(self, resus_beds=2, acute_beds=3, fast_beds=3, max_waiting=2):
        super().__init__()
        self.resus_beds = resus_beds
        self.acute_beds = acute_beds
        self.fast_beds = fast_beds
        self.max_waiting = max_waiting

    def warning_score(self, v):
        hr, sbp, rr, spo2, temp = v[0], v[1], v[2], v[3], v[4]
        score = torch.zeros((), dtype=torch.long)
        if hr > 130 or hr < 40:
            score = score + 3
        elif hr > 110:
            score = score + 2
        elif hr > 90 or hr < 50:
            score = score + 1
        if spo2 < 92:
            score = score + 3
        elif spo2 < 94:
            score = score + 2
        score = score + 3 * ((sbp < 90) | (rr > 24)).long() + ((temp > 39.0) | (temp < 35.0)).long()
        return score

    def forward(self, vitals):
        resus, acute, fast = self.resus_beds, self.acute_beds, self.fast_beds
        waiting = 0
        placed = []
        for i in range(vitals.shape[0]):
            v = vitals[i]
            if v[3] < 50:
                # no valid SpO2 reading: patient left before being seen
                placed.append(NOT_SEEN)
                continue
            score = self.warning_score(v)
            if score >= 7 and resus > 0:
                resus -= 1
                placed.append(RESUS)
            elif (score >= 5 or v[3] < 92) and acute > 0:
                acute -= 1
                placed.append(ACUTE)
            elif score < 3 and fast > 0:
                fast -= 1
                placed.append(FAST_TRACK)
            else:
                waiting += 1
                placed.append(WAITING)
                if waiting > self.max_waiting:
                    break
        codes = torch.tensor(placed)
        if len(placed) < vitals.shape[0]:
            codes = torch.cat([codes, torch.full((vitals.shape[0] - len(placed),), DIVERTED)])
        return codes, torch.tensor([resus, acute, fast, waiting])


def model():
    torch.manual_seed(22)
    return BedAssigner().eval()


def _make_patients(rows):
    """rows of (HR, SBP, RR, SpO2, temp)."""
    return (torch.tensor(rows, dtype=torch.float32),)


NORMAL = [75.0, 125.0, 16.0, 98.0, 36.8]
SEPTIC = [135.0, 82.0, 28.0, 90.0, 39.6]        # hr>130 (3) + spo2<92 (3) + sbp/rr (3) + temp (1)
BRADY = [38.0, 95.0, 14.0, 95.0, 36.5]          # hr<40 (3)
TACHY = [118.0, 120.0, 18.0, 93.0, 37.2]        # hr>110 (2) + spo2<94 (2)
MILD = [95.0, 130.0, 18.0, 97.0, 37.5]          # hr>90 (1)
SLOW = [45.0, 128.0, 15.0, 97.0, 36.6]          # hr<50 (1)
HYPOX = [80.0, 125.0, 16.0, 91.0, 36.9]         # spo2<92 (3): acute via the `or`
LEFT = [0.0, 0.0, 0.0, 0.0, 0.0]                # left without being seen


def example_inputs():
    return _make_patients([NORMAL, SEPTIC, TACHY, LEFT, MILD, HYPOX])


def dynamic_shapes():
    return ({0: torch.export.Dim("patients", min=2, max=64)},)


def verify_inputs():
    return [
        example_inputs(),   # fast track, resus, waiting (score 4), left unseen, fast track, acute via low SpO2
        _make_patients([SEPTIC, SEPTIC, SEPTIC, BRADY, SLOW, NORMAL]),
        # ^ 3rd septic finds resus full -> acute; brady (score 3) waits; slow HR and normal go to fast track
        _make_patients([SEPTIC] * 3 + [HYPOX] * 3 + [NORMAL] * 3 + [TACHY] * 4),
        # ^ beds fill up in turn, waiting room overflows on the 3rd waiting patient: diversion, rest padded
        _make_patients([[128.0, 85.0, 30.0, 93.0, 34.5], [100.0, 140.0, 12.0, 99.0, 37.0]]),
        # ^ hr 111-130 (2) + spo2 92-94 (2) + sbp/rr (3) + cold (1) = 8: resus; hr 91-110 (1): fast track
    ]
