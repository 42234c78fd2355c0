"""Average-speed (section) camera enforcement.

Plates read at the entry and exit gantries are matched upstream; for each
matched pair we get the two timestamps and the OCR confidences.  A small
calibration layer fuses the two OCR confidences into a match confidence.
Average speed over the section decides a tiered fine.  In wet-weather mode
the variable limit is lower, and in a traffic jam (most vehicles far below
the limit) enforcement is suspended because plate matches get unreliable.

KIND T.  Constructs: 1 (if on .any()/.max()/reductions), 2 (early return;
variable assigned in one branch only), 3 (and/not on tensor predicates),
9 (wet-weather / enforce-in-jams config flags).
"""
import torch
import torch.nn as nn
from torch.export import Dim

KIND = "T"
CONSTRUCTS = (1, 2, 3, 9)


class SectionSpeedCamera(nn.Module):
    def __init__(self, section_km=2.4, limit_kmh=100.0, wet_weather=False,
                 enforce_in_jams=False, min_conf=0.6, tolerance_kmh=5.0):
        super().__init__()
        self.section_km = section_km
        self.limit_kmh = limit_kmh
        self.wet_weather = wet_weather
        self.enforce_in_jams = enforce_in_jams
        self.min_conf = min_conf
        self.tolerance = tolerance_kmh
        self.match_calib = nn.Linear(2, 1)
        with torch.no_grad():
            self.match_calib.weight.copy_(torch.tensor([[3.0, 3.0]]))
            self.match_calib.bias.fill_(-2.0)

    def forward(self, entry_t, exit_t, ocr_conf):
        # entry_t, exit_t: (N,) seconds; ocr_conf: (N, 2) entry/exit read confidence
        travel_s = exit_t - entry_t
        conf = torch.sigmoid(self.match_calib(ocr_conf)).squeeze(1)
        valid = (travel_s > 0) & (conf > self.min_conf)
        if not valid.any():
            return torch.zeros_like(entry_t), torch.zeros(())

        speed = self.section_km / (travel_s.clamp(min=1.0) / 3600.0)
        limit = self.limit_kmh - 20.0 if self.wet_weather else self.limit_kmh
        excess = torch.where(valid, speed - limit, torch.zeros_like(speed))

        fines = torch.zeros_like(speed)
        if excess.max() > self.tolerance:
            fines = torch.where(excess > 30.0, torch.full_like(speed, 500.0),
                                torch.where(excess > 15.0, torch.full_like(speed, 200.0),
                                            torch.where(excess > self.tolerance,
                                                        torch.full_like(speed, 80.0),
                                                        torch.zeros_like(speed))))

        mean_speed = speed[valid].mean()
        if mean_speed < 0.4 * limit and not self.enforce_in_jams:
            # congestion: average speeds meaningless, suspend enforcement
            fines = torch.zeros_like(fines)
        return fines, mean_speed


def model():
    torch.manual_seed(61004)
    return SectionSpeedCamera(wet_weather=True).eval()


def make_pass(speeds_kmh, start=1000.0, conf=0.95, section_km=2.4):
    speeds = torch.tensor(speeds_kmh)
    n = speeds.shape[0]
    entry = start + 7.0 * torch.arange(n, dtype=torch.float32)
    exit_ = entry + section_km / speeds * 3600.0
    c = torch.full((n, 2), conf)
    return entry, exit_, c


def example_inputs():
    # wet-weather limit 80 km/h; a mix of compliant and speeding cars
    return make_pass([72.0, 79.0, 91.0, 101.0, 118.0, 76.0])


def dynamic_shapes():
    n = Dim("vehicles", min=2, max=512)
    return ({0: n}, {0: n}, {0: n})


def verify_inputs():
    e, x, c = make_pass([70.0, 75.0, 65.0])
    bad_conf = (e, x, torch.full((3, 2), 0.2))
    e2, x2, c2 = make_pass([22.0, 18.0, 25.0, 150.0])
    e3, x3, c3 = make_pass([90.0, 60.0])
    x3 = x3.clone()
    x3[0] = e3[0] - 5.0  # clock glitch: exit before entry
    return [
        # fines in every tier (80/200/500), free-flowing traffic: fines kept
        example_inputs(),
        # nobody above limit 80 + tolerance 5: tier branch skipped, no jam
        make_pass([70.0, 75.0, 65.0]),
        # every plate match below min confidence: early return
        bad_conf,
        # mostly slow cars plus one at 150 km/h; mean 53.75 > 32: no jam, 500 fine kept
        (e2, x2, c2),
        # clock glitch (exit before entry) invalidates the first car; the other one
        # is at 60 km/h: no fine tier, mean 60 > 32: no jam
        (e3, x3, c3),
        # jam: mean 20.5 < 32 with one 100 km/h outlier read -> tier branch taken,
        # then fines suspended by the jam rule
        make_pass([12.0, 14.0, 16.0, 18.0, 20.0, 15.0, 13.0, 11.0, 10.0, 9.0, 8.0, 100.0]),
    ]
