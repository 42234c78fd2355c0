"""Flow cytometry: hierarchical gating to a CD4/CD8 T-cell report.

Events (log-scaled FSC, SSC, CD4-FITC, CD8-PE, viability dye) pass through a
sequence of gates: debris, dead cells, granulocytes.  Each gate starts from
its panel default and relaxes its threshold step by step when it would keep
implausibly few events (instrument drift between runs).  If a gate leaves
too few cells the sample is reported as insufficient.  The survivors are
spillover-compensated (learned 2x2 matrix) and split into CD4/CD8 quadrants.

KIND X.  Constructs: 1 (if on reductions / counts, ternary guard),
2 (early return after any gate), 3 (and in the relaxation while),
4 (while with a tensor condition inside each gate), 7 (gate submodules with
their own loops and helpers), 8 (branch on the data-dependent population
size), 9 (loop over an nn.ModuleList of gates, static gate direction).
"""
import torch
import torch.nn as nn
from torch.export import Dim

KIND = "X"
CONSTRUCTS = (1, 2, 3, 4, 7, 8, 9)

FSC, SSC, CD4, CD8, VIAB = range(5)


class ThresholdGate(nn.Module):
    def __init__(self, channel, threshold, keep_above, min_keep=0.3, step=0.25, max_relax=4):
        super().__init__()
        self.channel = channel
        self.threshold = threshold
        self.keep_above = keep_above
        self.min_keep = min_keep
        self.step = step
        self.max_relax = max_relax

    def _apply(self, pop, thr):
        x = pop[:, self.channel]
        return x > thr if self.keep_above else x < thr

    def forward(self, pop):
        thr = torch.tensor(self.threshold)
        keep = self._apply(pop, thr)
        tries = 0
        while keep.float().mean() < self.min_keep and tries < self.max_relax:
            thr = thr - self.step if self.keep_above else thr + self.step
            keep = self._apply(pop, thr)
            tries += 1
        return keep


class FlowGateSequencer(nn.Module):
    def __init__(self, min_events=20, cd_threshold=2.0):
        super().__init__()
        self.gates = nn.ModuleList([
            ThresholdGate(FSC, 1.5, keep_above=True),    # debris
            ThresholdGate(VIAB, 2.0, keep_above=False),  # dead cells take up the dye
            ThresholdGate(SSC, 2.5, keep_above=False),   # granulocytes
        ])
        self.compensation = nn.Linear(2, 2, bias=False)
        with torch.no_grad():
            self.compensation.weight.copy_(torch.eye(2) + 0.05 * torch.randn(2, 2))
        self.min_events = min_events
        self.cd_threshold = cd_threshold

    def forward(self, events):
        # events: (E, 5) log-scaled [FSC, SSC, CD4, CD8, viability]
        pop = events
        counts = [torch.tensor(float(events.shape[0]))]
        for gate in self.gates:
            pop = pop[gate(pop)]
            counts.append(torch.tensor(float(pop.shape[0])))
            if pop.shape[0] < self.min_events:
                # insufficient sample: report counts so far, no phenotype
                while len(counts) < len(self.gates) + 1:
                    counts.append(torch.zeros(()))
                return torch.stack(counts), torch.zeros(4), torch.zeros(())

        comp = self.compensation(pop[:, [CD4, CD8]])
        cd4 = comp[:, 0] > self.cd_threshold
        cd8 = comp[:, 1] > self.cd_threshold
        quadrants = torch.stack([
            (cd4 & ~cd8).sum(), (~cd4 & cd8).sum(), (cd4 & cd8).sum(), (~cd4 & ~cd8).sum(),
        ]).float() / pop.shape[0]
        ratio = quadrants[0] / quadrants[1] if quadrants[1] > 0 else torch.zeros(())
        return torch.stack(counts), quadrants, ratio


def model():
    torch.manual_seed(61014)
    return FlowGateSequencer().eval()


def make_sample(n_lymph, n_debris, n_dead, n_gran, cd8_frac=0.35, fsc_shift=0.0, dye_shift=0.0,
                sd=0.1, seed=0):
    g = torch.Generator().manual_seed(seed)

    def cluster(n, mean):
        return torch.tensor(mean) + torch.tensor([0.0, 0.0, 0.0, 0.0, dye_shift]) + sd * torch.randn(n, 5, generator=g)

    n8 = int(n_lymph * cd8_frac)
    parts = [
        cluster(n_lymph - n8, [2.6 + fsc_shift, 1.5, 3.0, 0.8, 0.8]),  # CD4+ T cells
        cluster(n8, [2.6 + fsc_shift, 1.5, 0.8, 3.0, 0.8]),            # CD8+ T cells
        cluster(n_debris, [0.1, 0.6, 0.5, 0.5, 1.0]),
        cluster(n_dead, [2.4 + fsc_shift, 1.6, 1.5, 1.5, 3.2]),
        cluster(n_gran, [3.0 + fsc_shift, 3.4, 1.0, 1.0, 0.9]),
    ]
    return (torch.cat(parts),)


def example_inputs():
    # healthy sample: every gate keeps enough at its default threshold
    return make_sample(120, 30, 20, 40, seed=1)


def dynamic_shapes():
    return ({0: Dim("events", min=2, max=20000)},)


def verify_inputs():
    return [
        # no relaxation anywhere, CD4 and CD8 present (ratio computed)
        example_inputs(),
        # instrument drift: FSC 1.25 lower, debris gate keeps only 14% at 1.5
        # -> relaxes once (to 1.25), dead cells then removed by the viability gate
        make_sample(60, 20, 10, 15, fsc_shift=-1.25, sd=0.03, seed=2),
        # mostly debris: debris gate relaxes 4 times (max), still keeps < 30%, and only
        # 12 < 20 events survive -> early return after the first gate, counts padded
        make_sample(8, 300, 2, 2, seed=3),
        # no CD8+ cells at all: ratio guard takes the else branch
        make_sample(50, 10, 5, 10, cd8_frac=0.0, seed=4),
        # dye over-staining: every event 1.3 brighter in the viability channel, the live
        # gate keeps nothing at 2.0 -> relaxes upwards once (to 2.25)
        make_sample(80, 10, 10, 10, dye_shift=1.3, sd=0.03, seed=6),
        # small sample (30 events): the last gate leaves 15 < 20 cells -> early return there
        make_sample(15, 5, 5, 5, seed=5),
    ]
