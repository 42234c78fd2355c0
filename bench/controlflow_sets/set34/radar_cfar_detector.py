"""Automotive radar CA-CFAR detector with peak grouping and a target classifier.

Input is a range-Doppler power map (linear units). For every range cell a
cell-averaging CFAR estimates the noise from training cells on both sides
(one side only near the edges of the map, a size-dependent branch) and flags
Doppler bins above the adaptive threshold. Detections in adjacent range cells
of the same Doppler bin are merged into one target (keeping the strongest
cell). Each target is then classified (pedestrian / cyclist / vehicle) by a
small network from range, Doppler and SNR.

Kind X. Constructs: 1 (if/elif/else on tensor predicates, .any()), 2 (early
return when nothing is detected; branches assign the same variables),
3 (`not` on a tensor predicate), 5 (for over the dynamic number of range
cells and, nested, over the data-dependent detections; Python lists of
tensors), 6 (continue on empty range cells), 7 (training-window helper with its own branches), 8 (branches
on the range index vs the dynamic map size). Several data-dependent sizes.
"""
import torch
import torch.nn as nn


def noise_estimate(power, r, guard, train):
    """Mean power of the training cells around range cell r (per Doppler bin)."""
    n = power.shape[0]
    lead = power[max(0, r - guard - train):max(0, r - guard)]
    lag = power[min(n, r + guard + 1):min(n, r + guard + 1 + train)]
    if lead.shape[0] == 0:
        return lag.mean(dim=0)
    elif lag.shape[0] == 0:
        return lead.mean(dim=0)
    else:
        return torch.cat([lead, lag]).mean(dim=0)


class CFARDetector(nn.Module):
    def __init__(self, guard=1, train=4, scale=6.0, range_res=0.5, doppler_res=0.25, hidden=16):
        super().__init__()
        self.guard = guard
        self.n_train = train
        self.scale = scale
        self.range_res = range_res
        self.doppler_res = doppler_res
        self.classifier = nn.Sequential(nn.Linear(3, hidden), nn.ReLU(), nn.Linear(hidden, 3))

    def forward(self, power):
        # power: (R, D) range x Doppler, linear
        n_range, n_doppler = power.shape
        detections = []
        for r in range(n_range):
            noise = noise_estimate(power, r, self.guard, self.n_train)
            hits = power[r] > self.scale * noise
            if not hits.any():
                continue
            for d in torch.nonzero(hits).flatten().tolist():
                detections.append((r, d, power[r, d], noise[d]))

        if len(detections) == 0:
            return torch.zeros(0, 3), torch.zeros(0, 3)

        # merge runs of adjacent range cells in the same Doppler bin (detections are range-major)
        targets = []
        for r, d, p, nz in sorted(detections, key=lambda x: (x[1], x[0])):
            if targets and targets[-1][1] == d and r - targets[-1][3] == 1:
                best_r, _, best_p, _, best_nz = targets[-1]
                if p > best_p:
                    targets[-1] = (r, d, p, r, nz)
                else:
                    targets[-1] = (best_r, d, best_p, r, best_nz)
            else:
                targets.append((r, d, p, r, nz))

        rows = []
        for r, d, p, _, nz in targets:
            snr_db = 10.0 * torch.log10(p / nz)
            rows.append(torch.stack([torch.tensor(r * self.range_res),
                                     torch.tensor((d - n_doppler // 2) * self.doppler_res), snr_db]))
        feats = torch.stack(rows)
        probs = torch.softmax(self.classifier(feats / torch.tensor([50.0, 10.0, 30.0])), dim=-1)
        return feats, probs


def model():
    torch.manual_seed(3420)
    return CFARDetector().eval()


def _rd_map(n_range, n_doppler, targets, seed):
    g = torch.Generator().manual_seed(seed)
    power = 0.5 + torch.rand(n_range, n_doppler, generator=g)   # noise floor 0.5-1.5
    for r, d, p in targets:
        power[r, d] = p
    return power


def example_inputs():
    # a car spread over 2 range cells, a pedestrian, a cyclist close to the sensor
    return (_rd_map(64, 16, [(20, 10, 80.0), (21, 10, 45.0), (40, 7, 25.0), (1, 12, 60.0)], 1),)


def dynamic_shapes():
    R = torch.export.Dim("range_cells", min=8, max=256)
    D = torch.export.Dim("doppler_bins", min=4, max=64)
    return ({0: R, 1: D},)


def verify_inputs():
    return [
        # merged 2-cell target (stronger cell first), single-cell targets, one near the near edge
        example_inputs(),
        # empty scene -> no detections, early return
        (_rd_map(32, 8, [], 2),),
        # target at the very last range cell (lag window empty) and a 2-cell run whose
        # weaker cell comes first (merge replaces it with the stronger one)
        (_rd_map(48, 32, [(47, 3, 90.0), (10, 20, 30.0), (11, 20, 70.0), (30, 5, 50.0)], 3),),
        # smallest map, one target in the middle, two targets in the same range cell
        (_rd_map(8, 4, [(4, 1, 60.0), (4, 3, 55.0)], 4),),
    ]
