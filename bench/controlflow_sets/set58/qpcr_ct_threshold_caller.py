"""Real-time PCR plate analysis: baseline subtraction, plate-wide threshold, Ct calling
by linear interpolation at the first threshold crossing, and a small learned curve-shape
QC that flags late non-specific amplification (primer dimers)."""
import torch
import torch.nn as nn


class CurveShapeQC(nn.Module):
    """1-D conv over a normalised amplification curve -> 'non-specific product' logit."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(1, 4, kernel_size=5, padding=2)
        self.head = nn.Linear(4, 1)

    def forward(self, curve):
        h = torch.relu(self.conv(curve.view(1, 1, -1)))
        return self.head(h.mean(dim=-1)).view(())


class QpcrCtCaller(nn.Module):
    def __init__(self, n_cycles=40, baseline=(3, 15), fixed_threshold=0.2, min_wells_for_stats=8,
                 late_ct=35.0, qc_cut=-0.255):
        super().__init__()
        self.qc = CurveShapeQC()
        self.n_cycles = n_cycles
        self.baseline = baseline
        self.fixed_threshold = fixed_threshold
        self.min_wells_for_stats = min_wells_for_stats
        self.late_ct = late_ct
        self.qc_cut = qc_cut  # logit cut tuned on melt-curve-confirmed dimer wells

    def forward(self, fluor):
        n_wells = fluor.shape[0]
        b0, b1 = self.baseline
        base = fluor[:, b0:b1]
        delta = fluor - base.mean(dim=1, keepdim=True)
        if n_wells < self.min_wells_for_stats:
            # strip tubes: too few wells for noise statistics, use the assay's fixed threshold
            thr = torch.tensor(self.fixed_threshold)
        else:
            thr = torch.clamp(10.0 * base.std(dim=1).median(), min=0.05)
        cts, flags = [], []
        for w in range(n_wells):
            curve = delta[w]
            if curve.max() < thr:
                cts.append(torch.tensor(float(self.n_cycles)))  # undetermined
                flags.append(torch.tensor(1))
                continue
            c = 0
            while curve[c] < thr:
                c += 1
            if c == 0:
                ct = torch.tensor(1.0)  # above threshold from cycle 1: baseline is broken
                flag = 2
            else:
                frac = (thr - curve[c - 1]) / (curve[c] - curve[c - 1])
                ct = c + frac  # cycles are numbered from 1
                flag = 0
            score = self.qc(curve / curve.max())
            if score > self.qc_cut and ct > self.late_ct:
                flag = 3  # late and odd-shaped: likely primer dimer
            cts.append(ct)
            flags.append(torch.tensor(flag))
        return torch.stack(cts), torch.stack(flags)


def model():
    torch.manual_seed(5803)
    return QpcrCtCaller().eval()


def _plate(ct_halves, amps, seed, decay_first=(), dimer_from=None):
    g = torch.Generator().manual_seed(seed)
    cyc = torch.arange(1, 41, dtype=torch.float32)
    rows = []
    for i, (c_half, amp) in enumerate(zip(ct_halves, amps)):
        row = 1.0 + amp / (1.0 + torch.exp(-(cyc - c_half) / 1.6))
        row = row + 0.01 * torch.randn(40, generator=g)
        if i in decay_first:
            row = row + 6.0 * torch.exp(-(cyc - 1.0))  # lid condensation on first cycles
        if dimer_from is not None and i in dimer_from:
            row = row + 0.05 * (cyc - dimer_from[i]).clamp(min=0)  # slow linear dimer signal
        rows.append(row)
    return torch.stack(rows)


def example_inputs():
    return (_plate([18.0, 22.0, 25.0, 30.0, 24.0, 50.0, 38.0, 20.0],
                   [3.0, 2.5, 2.0, 1.5, 2.2, 0.0, 0.8, 3.0], seed=1),)


def dynamic_shapes():
    return ({0: torch.export.Dim("wells", min=2, max=96)},)


def verify_inputs():
    g = torch.Generator().manual_seed(7)
    big_c = (18.0 + 22.0 * torch.rand(96, generator=g)).tolist()
    big_a = (0.5 + 2.5 * torch.rand(96, generator=g)).tolist()
    big_a[5] = big_a[10] = big_a[11] = 0.0
    return [
        # 8 wells: plate-statistics threshold, one no-template control (undetermined), late well
        example_inputs(),
        # 2 wells: fixed threshold; well 0 above threshold at cycle 1 (flag 2), well 1 normal
        (_plate([20.0, 23.0], [2.0, 2.0], seed=2, decay_first=(0,)),),
        # 96 wells: Cts 18..40, one empty well, late sigmoid wells pass QC, two late
        # linear (primer-dimer) wells get flag 3
        (_plate(big_c, big_a, seed=3, dimer_from={10: 33.0, 11: 34.0}),),
        # 4 wells, all negative: every Ct undetermined
        (_plate([50.0, 55.0, 60.0, 45.0], [0.0, 0.0, 0.0, 0.05], seed=4),),
    ]
