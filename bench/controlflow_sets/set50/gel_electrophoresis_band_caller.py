"""Agarose gel band caller for a lab-automation imager.

gel[l, p] is the background-corrected intensity profile of lane l down the
gel (p = pixels from the wells).  Lane 0 holds the DNA ladder.  Bands are
local maxima above a robust noise floor; maxima closer than the minimum
separation are merged (the stronger one is kept).  Ladder bands give a
log-linear size calibration (with a default calibration when the ladder is
incomplete); sample bands are sized by interpolating between ladder bands
and extrapolating beyond them.  A learned head estimates band mass (ng).
Returns sizes (bp) and masses per sample lane, padded with 0 to max_bands.
"""
import torch
import torch.nn as nn

LADDER_BP = (10000.0, 5000.0, 3000.0, 2000.0, 1000.0, 500.0, 250.0)
DEFAULT_LADDER_FRAC = (0.10, 0.20, 0.28, 0.35, 0.50, 0.65, 0.80)


def noise_floor(profile):
    med = profile.median()
    mad = (profile - med).abs().median()
    return med + 4.0 * mad + 0.05


def find_peaks(profile, min_sep):
    mid = profile[1:-1]
    is_peak = (mid > profile[:-2]) & (mid >= profile[2:]) & (mid > noise_floor(profile))
    peaks = []
    for p in (is_peak.nonzero().flatten() + 1).tolist():
        if peaks and p - peaks[-1] < min_sep:
            if profile[p] > profile[peaks[-1]]:
                peaks[-1] = p
            continue
        peaks.append(p)
    return peaks


def px_to_bp(px, ladder_px, log_bp):
    for k in range(len(ladder_px) - 1):
        if ladder_px[k] <= px <= ladder_px[k + 1]:
            frac = (px - ladder_px[k]) / (ladder_px[k + 1] - ladder_px[k])
            log_size = log_bp[k] + frac * (log_bp[k + 1] - log_bp[k])
            break
    else:
        # outside the ladder: extrapolate the nearest segment
        k = 0 if px < ladder_px[0] else len(ladder_px) - 2
        slope = (log_bp[k + 1] - log_bp[k]) / (ladder_px[k + 1] - ladder_px[k])
        log_size = log_bp[k] + (px - ladder_px[k]) * slope
    return torch.exp(log_size)


class BandCaller(nn.Module):
    def __init__(self, max_bands=6):
        super().__init__()
        self.register_buffer("log_bp", torch.log(torch.tensor(LADDER_BP)))
        self.mass_head = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 1))
        self.max_bands = max_bands

    def calibrate(self, ladder_profile, min_sep):
        n_px = ladder_profile.shape[0]
        ladder_px = [int(f * n_px) for f in DEFAULT_LADDER_FRAC]
        found = find_peaks(ladder_profile, min_sep)
        if len(found) == len(LADDER_BP):
            ladder_px = found
        return ladder_px

    def forward(self, gel):
        n_lanes, n_px = gel.shape
        min_sep = max(2, n_px // 64)
        ladder_px = self.calibrate(gel[0], min_sep)

        sizes, masses = [], []
        for lane in range(1, n_lanes):
            profile = gel[lane]
            lane_sizes = torch.zeros(self.max_bands)
            lane_mass = torch.zeros(self.max_bands)
            peaks = find_peaks(profile, min_sep)
            if not peaks:
                sizes.append(lane_sizes)      # empty lane / failed PCR
                masses.append(lane_mass)
                continue
            for b, px in enumerate(peaks):
                if b >= self.max_bands:
                    break
                lane_sizes[b] = px_to_bp(px, ladder_px, self.log_bp)
                feats = torch.stack([profile[px], torch.tensor(px / n_px)])
                lane_mass[b] = nn.functional.softplus(self.mass_head(feats)).squeeze()
            sizes.append(lane_sizes)
            masses.append(lane_mass)
        return torch.stack(sizes), torch.stack(masses)


def model():
    torch.manual_seed(514)
    return BandCaller().eval()


def _lane(n_px, sizes_bp, heights=None, sigma=None):
    p = torch.arange(n_px, dtype=torch.float32)
    sigma = sigma if sigma is not None else 1.0 + n_px / 256.0
    prof = torch.zeros(n_px)
    log_hi, log_lo = torch.log(torch.tensor(LADDER_BP[0])), torch.log(torch.tensor(LADDER_BP[-1]))
    for i, bp in enumerate(sizes_bp):
        # same log-linear mobility the default calibration assumes
        frac = 0.10 + 0.70 * (log_hi - torch.log(torch.tensor(bp))) / (log_hi - log_lo)
        h = 1.0 if heights is None else heights[i]
        prof += h * torch.exp(-0.5 * ((p - frac * n_px) / sigma) ** 2)
    return prof


def _gel(n_px, lanes, ladder=LADDER_BP, seed=0):
    g = torch.Generator().manual_seed(seed)
    rows = [_lane(n_px, ladder)] + [_lane(n_px, s) for s in lanes]
    return (torch.stack(rows) + 0.01 * torch.rand(len(rows), n_px, generator=g),)


def example_inputs():
    return _gel(200, [[3000.0, 800.0], [], [6000.0, 1500.0, 400.0]], seed=1)


def dynamic_shapes():
    return ({0: torch.export.Dim("lanes", min=2, max=24), 1: torch.export.Dim("pixels", min=32, max=512)},)


def verify_inputs():
    many = [[9000.0, 4500.0, 2500.0, 1200.0, 700.0, 400.0, 300.0]] * 11
    plasmid = [[12000.0, 2000.0], [200.0, 1000.0]] * 6
    doublet = _gel(512, [[], [3000.0]] * 11 + [[1000.0]], seed=3)[0]
    doublet[5] += _lane(512, [2000.0, 2090.0], heights=[1.0, 0.6], sigma=1.5)
    return [
        example_inputs(),                                     # full ladder, one empty lane, interpolation
        _gel(32, [[1500.0]], ladder=LADDER_BP[:5], seed=2),   # smallest gel, incomplete ladder -> default calibration
        (doublet,),                                           # 24 lanes x 512 px, close doublet merged (stronger kept)
        _gel(300, many, seed=4),                              # 7 bands per lane -> capped at max_bands
        _gel(128, plasmid, seed=5),                           # bands beyond both ladder ends -> extrapolation
    ]
