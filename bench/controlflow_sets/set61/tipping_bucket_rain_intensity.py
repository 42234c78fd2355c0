"""Tipping-bucket rain gauge: intensity series and storm class from tip times.

The logger stores the timestamp of every bucket tip (0.2 mm each).  Tips are
binned into 5-minute intervals, each converted to mm/h with the usual
dynamic undercatch correction at high intensities, and the storm is rated by
peak intensity.  A tiny learned head estimates the probability that the
event is convective from the pooled intensity profile.

KIND T.  Constructs: 1 (if/elif/else on the peak intensity, if on a bin
rate), 2 (early return; variable reassigned in one branch only), 5 (for over
a tensor-derived bin count int(.item()), append + torch.stack), 8 (branch on
the dynamic number of tips).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim

KIND = "T"
CONSTRUCTS = (1, 2, 5, 8)


class TippingBucketRainGauge(nn.Module):
    def __init__(self, mm_per_tip=0.2, bin_s=300.0, undercatch_rate=25.0):
        super().__init__()
        self.mm_per_tip = mm_per_tip
        self.bin_s = bin_s
        self.undercatch_rate = undercatch_rate
        self.profile_head = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 1))

    def forward(self, tip_times):
        # tip_times: (N,) seconds since logger start, ascending
        if tip_times.shape[0] < 3:
            # one or two tips are usually a knock or a bird, not rain
            return torch.zeros(1), torch.tensor(0), torch.zeros(())

        span = tip_times[-1] - tip_times[0]
        n_bins = int(span.item() // self.bin_s) + 1
        rates = []
        for b in range(n_bins):
            lo = tip_times[0] + b * self.bin_s
            count = ((tip_times >= lo) & (tip_times < lo + self.bin_s)).sum()
            rate = count * self.mm_per_tip * 3600.0 / self.bin_s
            if rate > self.undercatch_rate:
                # water keeps pouring in while the bucket tips
                rate = rate * (1.0 + 0.1 * (rate - self.undercatch_rate) / self.undercatch_rate)
            rates.append(rate)
        intensity = torch.stack(rates)

        peak = intensity.max()
        if peak >= 50.0:
            storm_class = torch.tensor(3)   # violent
        elif peak >= 10.0:
            storm_class = torch.tensor(2)   # heavy
        elif peak >= 2.5:
            storm_class = torch.tensor(1)   # moderate
        else:
            storm_class = torch.tensor(0)   # light

        profile = F.adaptive_avg_pool1d(intensity.view(1, 1, -1), 8).view(1, 8)
        p_convective = torch.sigmoid(self.profile_head(profile / 10.0)).view(())
        return intensity, storm_class, p_convective


def model():
    torch.manual_seed(61005)
    return TippingBucketRainGauge().eval()


def make_tips(counts_per_bin, start=17.3, bin_s=300.0):
    """Evenly spread `c` tips inside each 5-min bin, away from bin edges."""
    times = []
    for b, c in enumerate(counts_per_bin):
        for k in range(c):
            times.append(start + b * bin_s + 10.0 + (bin_s - 40.0) * (k + 0.5) / c)
    return torch.tensor(times)


def example_inputs():
    # a moderate shower: 2, 4, 3 tips per 5 min (4.8..9.6 mm/h)
    return (make_tips([2, 4, 3]),)


def dynamic_shapes():
    return ({0: Dim("tips", min=2, max=2048)},)


def verify_inputs():
    return [
        # moderate (peak 9.6 mm/h), 3 bins, no undercatch correction
        example_inputs(),
        # only two tips: size branch -> early return
        (torch.tensor([120.5, 980.25]),),
        # drizzle: 1 tip per bin (2.4 mm/h < 2.5) with an empty bin -> light
        (torch.tensor([30.0, 700.0, 1110.0]),),
        # heavy: 8 tips in a bin = 19.2 mm/h, still below undercatch threshold
        (make_tips([3, 8, 6, 2]),),
        # violent cloudburst: 24 tips = 57.6 mm/h > 25, corrected, peak >= 50
        (make_tips([5, 14, 24, 9]),),
        # a single bin (span < 5 min): loop runs once, 3 tips = 7.2 mm/h
        (torch.tensor([40.0, 95.5, 210.0]),),
    ]
