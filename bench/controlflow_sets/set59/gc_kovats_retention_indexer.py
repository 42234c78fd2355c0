"""Analytical chemistry: GC peak picking with retention indices and library lookup.

A gas-chromatography FID trace is smoothed, its baseline removed, and peaks
are picked as local maxima above a noise-based threshold.  Peaks closer than
the column can resolve are merged (the larger wins).  Each peak's linear
(temperature-programmed, van den Dool & Kratz) retention index comes from
the bracketing pair of n-alkane standards run on the same method; peaks
outside the alkane ladder get no index.  Indices are then matched against a
small flavour-compound library within a tolerance window.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class KovatsIndexer(nn.Module):
    def __init__(self):
        super().__init__()
        self.dt_min = 0.05            # minutes per sample
        self.first_alkane_carbons = 8
        self.noise_k = 8.0
        self.min_separation_min = 0.25
        self.ri_tolerance = 12.0
        self.max_raw_samples = 800
        # library: hexanal 800, alpha-pinene 937, limonene 1030, linalool 1100,
        # menthol 1173, decanal 1206, eugenol 1358, caryophyllene 1420
        self.register_buffer("library_ri", torch.tensor(
            [800.0, 937.0, 1030.0, 1100.0, 1173.0, 1206.0, 1358.0, 1420.0]))
        # Gaussian smoothing kernel with a fitted (here random) perturbation
        self.smooth = nn.Conv1d(1, 1, 5, padding=2, bias=False, padding_mode="replicate")
        with torch.no_grad():
            taps = torch.arange(5.0) - 2.0
            kernel = torch.softmax(-0.5 * taps ** 2 + 0.2 * self.smooth.weight.flatten(), 0)
            self.smooth.weight.copy_(kernel.view(1, 1, 5))

    def retention_index(self, rt, alkane_rt):
        for j in range(alkane_rt.shape[0] - 1):
            lo, hi = alkane_rt[j], alkane_rt[j + 1]
            if lo <= rt < hi:
                n = self.first_alkane_carbons + j
                return 100.0 * (n + (rt - lo) / (hi - lo))
        else:
            return None

    def library_match(self, ri):
        diff = (self.library_ri - ri).abs()
        best = int(torch.argmin(diff))
        return best if diff[best] <= self.ri_tolerance else -1

    def forward(self, signal, alkane_rt):
        dt = self.dt_min
        if signal.shape[0] > self.max_raw_samples:
            signal = F.avg_pool1d(signal[None, None], 2)[0, 0]  # long run: 2x bunching
            dt = dt * 2
        x = self.smooth(signal[None, None])[0, 0]
        x = x - x.median()
        mad = (x - x.median()).abs().median()
        thr = self.noise_k * 1.4826 * mad + 1e-3
        is_peak = (x[1:-1] > x[:-2]) & (x[1:-1] >= x[2:]) & (x[1:-1] > thr)
        idx = torch.nonzero(is_peak).flatten() + 1

        rows = []
        for k in range(idx.shape[0]):
            rt = idx[k].float() * dt
            height = x[idx[k]]
            if rows and rt - rows[-1][0] < self.min_separation_min:
                if height > rows[-1][1]:
                    rows[-1] = [rt, height]  # co-elution: keep the larger apex
                continue
            rows.append([rt, height])

        table = []
        for rt, height in rows:
            ri = self.retention_index(rt, alkane_rt)
            if ri is None:
                table.append(torch.stack([rt, height, torch.tensor(-1.0), torch.tensor(-1.0)]))
                continue
            hit = self.library_match(ri)
            table.append(torch.stack([rt, height, ri, torch.tensor(float(hit))]))
        if not table:
            return torch.full((1, 4), -1.0), torch.tensor(0)  # blank: no peaks
        return torch.stack(table), torch.tensor(len(table))


def model():
    torch.manual_seed(5920)
    return KovatsIndexer().eval()


def make_run(n_samples, peaks, alkanes, seed, dt=0.05):
    """peaks: (retention time min, height, width min)."""
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n_samples, dtype=torch.float32) * dt
    sig = 0.5 * torch.randn(n_samples, generator=g) + 2.0 + 0.01 * t
    for rt, h, wd in peaks:
        sig = sig + h * torch.exp(-0.5 * ((t - rt) / wd) ** 2)
    return sig, torch.tensor(alkanes, dtype=torch.float32)


ALKANES = [4.0, 7.5, 10.6, 13.4, 16.0, 18.4, 20.6, 22.7]   # C8 .. C15


def example_inputs():
    # 30-minute run: pinene- and limonene-like peaks, two co-eluting pairs (the first
    # with the larger apex first, the second with it last) and one unknown
    return make_run(600, [(8.9, 40.0, 0.12), (11.5, 60.0, 0.03), (11.7, 45.0, 0.03),
                          (14.6, 20.0, 0.03), (14.8, 45.0, 0.03), (17.3, 25.0, 0.15)],
                    ALKANES, 1)


def dynamic_shapes():
    return ({0: torch.export.Dim("samples", min=200, max=1600)},
            {0: torch.export.Dim("alkanes", min=2, max=12)})


def verify_inputs():
    ex = example_inputs()
    # 200 samples (10 min), only C8 and C9 standards: one peak inside the ladder,
    # one before it, one after it (no index)
    short = make_run(200, [(2.5, 30.0, 0.12), (5.2, 30.0, 0.12), (8.6, 30.0, 0.12)],
                     [4.0, 7.5], 2)
    # 1600 samples (80 min, bunched 2x), 12 alkanes; a co-eluting shoulder pair
    ladder = [4.0 + 3.0 * i for i in range(12)]
    long = make_run(1600, [(9.2, 20.0, 0.2), (9.45, 35.0, 0.2), (21.0, 50.0, 0.25),
                           (33.3, 15.0, 0.25), (44.0, 25.0, 0.25)], ladder, 3)
    # blank injection: noise only
    blank = make_run(400, [], ALKANES, 4)
    return [ex, short, long, blank]
