"""Endpoint ransomware tripwire: byte histograms of consecutive file-write
blocks; a run of high-entropy writes (encryption) raises the alarm and stops
the scan early. A small learned scorer rates each block.

Kind T. Constructs: 1, 2, 5, 6.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class EntropyMonitor(nn.Module):
    def __init__(self, high_entropy=7.5, run_to_alarm=4):
        super().__init__()
        self.high_entropy = high_entropy
        self.run_to_alarm = run_to_alarm
        self.scorer = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))

    def forward(self, block_hist):
        # block_hist: [N, 256] byte-value counts of each written block
        run = torch.zeros(())
        alarm_at = torch.full((), -1.0)
        max_entropy = torch.zeros(())
        suspicion = torch.zeros(())
        for i in range(block_hist.shape[0]):
            counts = block_hist[i]
            total = counts.sum()
            if total < 1.0:
                continue  # sparse/unwritten block
            p = counts / total
            h = -(p * torch.log2(p.clamp_min(1e-12))).sum()
            max_entropy = torch.maximum(max_entropy, h)
            feats = torch.stack([h / 8.0, (p.max() * 256).log1p() / 6.0, (counts > 0.5).float().mean()])
            suspicion = suspicion + torch.sigmoid(self.scorer(feats)).squeeze()
            if h > self.high_entropy:
                run = run + 1
            else:
                run = torch.zeros(())
            if run >= self.run_to_alarm:
                alarm_at = torch.tensor(float(i))
                break
        return alarm_at, max_entropy, suspicion


def model():
    torch.manual_seed(7)
    return EntropyMonitor().eval()


def _blocks(kinds, seed):
    """kinds: string of 'e' (encrypted), 't' (text), 'z' (empty)."""
    g = torch.Generator().manual_seed(seed)
    rows = []
    for k in kinds:
        if k == "e":
            rows.append(16.0 + torch.randint(-3, 4, (256,), generator=g).float())
        elif k == "t":
            c = torch.zeros(256)
            c[32:96] = torch.randint(20, 120, (64,), generator=g).float()
            rows.append(c)
        else:
            rows.append(torch.zeros(256))
    return torch.stack(rows)


def example_inputs():
    return (_blocks("ttettzteeeeett", 0),)


def dynamic_shapes():
    return ({0: Dim("blocks", min=2, max=256)},)


def verify_inputs():
    return [
        example_inputs(),  # empty block skipped, a lone high block resets, 4-run -> break
        (_blocks("tt", 1),),  # min size, all text: no alarm, loop completes
        (_blocks("zz", 2),),  # every block empty: continue each time, no entropy seen
        (_blocks("t" * 100 + "e" * 3 + "t" * 153, 3),),  # max size, run of 3 never alarms
        (_blocks("eeee" + "t" * 40, 4),),  # alarm on the 4th block (early break)
    ]
