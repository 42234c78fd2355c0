"""Flight-management helper: pick the holding-pattern entry and the outbound leg.

The heading history from the AHRS is cleaned of single-sample spikes and
unwrapped, the current heading is compared with the published inbound course to
choose a direct / teardrop / parallel entry (the 70 degree rule, mirrored for
left-hand holds), and the outbound heading and time are computed with the usual
triple-drift wind correction plus a small learned timing residual.
"""

import torch
import torch.nn as nn

DIRECT, TEARDROP, PARALLEL, UNABLE = 0, 1, 2, -1


class HoldingEntryAdvisor(nn.Module):
    def __init__(self, glitch_deg=30.0, max_correction_deg=30.0):
        super().__init__()
        self.glitch_deg = glitch_deg
        self.max_correction_deg = max_correction_deg
        self.timing_residual = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))

    def _clean_heading(self, track_deg):
        clean = [track_deg[0]]
        for t in range(1, track_deg.shape[0]):
            step = torch.remainder(track_deg[t] - clean[-1] + 180.0, 360.0) - 180.0
            if step.abs() > self.glitch_deg:
                continue  # AHRS spike, keep the previous heading
            clean.append(clean[-1] + step)
        return torch.stack(clean)

    def _entry_sector(self, heading, inbound_course, turn_dir):
        theta = torch.remainder(heading - inbound_course, 360.0)
        if turn_dir < 0:
            theta = torch.remainder(-theta, 360.0)  # left-hand hold is the mirror image
        if theta > 110.0 and theta <= 180.0:
            return TEARDROP
        elif theta > 180.0 and theta < 290.0:
            return PARALLEL
        else:
            return DIRECT

    def forward(self, track_deg, hold, wind):
        inbound_course, altitude_ft, turn_dir, tas_kt = hold[0], hold[1], hold[2], hold[3]
        wind_kt, wind_from_deg = wind[0], wind[1]

        if wind_kt > 0.6 * tas_kt:
            # the aircraft cannot hold the pattern against this wind
            return torch.tensor(UNABLE), torch.zeros(()), torch.zeros(())

        clean = self._clean_heading(track_deg)
        if track_deg.shape[0] >= 8:
            heading = clean[-4:].mean()  # average out turbulence
        else:
            heading = clean[-1]
        entry = self._entry_sector(heading, inbound_course, turn_dir)

        outbound_course = torch.remainder(inbound_course + 180.0, 360.0)
        rel = torch.deg2rad(wind_from_deg - outbound_course)
        crosswind = wind_kt * torch.sin(rel)
        headwind_out = wind_kt * torch.cos(rel)
        wca = torch.rad2deg(torch.asin(torch.clamp(crosswind / tas_kt, -1.0, 1.0)))
        correction = 3.0 * wca if 3.0 * wca.abs() < self.max_correction_deg else self.max_correction_deg * torch.sign(wca)
        outbound_heading = torch.remainder(outbound_course + correction, 360.0)

        base_s = 60.0 if altitude_ft <= 14000.0 else 90.0
        gs_out = tas_kt - headwind_out
        gs_in = tas_kt + headwind_out
        outbound_s = base_s * gs_in / gs_out
        feats = torch.stack([wind_kt / tas_kt, headwind_out / tas_kt, altitude_ft / 40000.0])
        outbound_s = outbound_s + 5.0 * torch.tanh(self.timing_residual(feats)).squeeze(-1)
        return torch.tensor(entry), outbound_heading, outbound_s


def model():
    torch.manual_seed(7)
    return HoldingEntryAdvisor().eval()


def _track(n, heading, seed, spikes=()):
    g = torch.Generator().manual_seed(seed)
    t = heading + 2.0 * torch.randn(n, generator=g)
    for i in spikes:
        t[i] = t[i] + 90.0
    return torch.remainder(t, 360.0)


def example_inputs():
    # 12 samples heading 300, inbound course 90, right-hand hold at 9000 ft
    return (
        _track(12, 300.0, 1, spikes=(5,)),
        torch.tensor([90.0, 9000.0, 1.0, 180.0]),
        torch.tensor([20.0, 45.0]),
    )


def dynamic_shapes():
    n = torch.export.Dim("n_track", min=2, max=64)
    return ({0: n}, None, None)


def verify_inputs():
    return [
        example_inputs(),  # spike skipped (continue); theta=210 -> parallel; small wca -> triple drift; low altitude
        (_track(64, 250.0, 2), torch.tensor([90.0, 16000.0, 1.0, 230.0]), torch.tensor([35.0, 180.0])),
        # ^ max track; theta=160 -> teardrop; high altitude (90 s base)
        (_track(2, 100.0, 3), torch.tensor([90.0, 6000.0, 1.0, 150.0]), torch.tensor([10.0, 300.0])),
        # ^ min track (<8 samples, last heading); theta=10 -> direct (theta>110 fails)
        (_track(5, 330.0, 4), torch.tensor([90.0, 6000.0, -1.0, 150.0]), torch.tensor([60.0, 0.0])),
        # ^ left-hand hold, theta=240 mirrored to 120 -> teardrop; 60 kt crosswind caps the correction
        (_track(20, 60.0, 5, spikes=(3, 11)), torch.tensor([270.0, 12000.0, -1.0, 200.0]), torch.tensor([15.0, 10.0])),
        # ^ left-hand, theta=150 mirrored to 210 -> parallel
        (_track(20, 60.0, 6), torch.tensor([200.0, 14000.0, 1.0, 200.0]), torch.tensor([15.0, 10.0])),
        # ^ theta=220 -> parallel, also theta>110 true but theta<=180 false in the teardrop test
        (_track(10, 0.0, 7), torch.tensor([90.0, 5000.0, 1.0, 100.0]), torch.tensor([70.0, 0.0])),
        # ^ wind stronger than 0.6 * TAS -> unable (early return)
    ]
