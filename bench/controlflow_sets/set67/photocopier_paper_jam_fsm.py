"""Office copier paper-path monitor: jam localisation, roller slip and wear.

For every fed sheet the controller logs the leading-edge arrival time (ms) at
the registration, transfer, fuser and exit sensors (-1 = never arrived).
A missing arrival is a jam at that section; the machine then purges the next
sheets (ejects them unprinted) before feeding again. Transits much slower
than nominal are counted as roller slip. The feed-motor current log is scanned
for a stall. A small MLP turns slip / jam statistics into a roller wear score.

Constructs: 1, 2, 3, 4, 5, 6, 7, 9
"""
import torch
import torch.nn as nn
from torch.export import Dim

FEEDING, RECOVER = 0, 1


class PaperPathMonitor(nn.Module):
    def __init__(self):
        super().__init__()
        self.nominal_ms = [120.0, 180.0, 150.0]
        self.slip_factor = 1.5
        self.purge_sheets = 2
        self.stall_amps = 2.5
        self.wear = nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 1))

    def time_to_stall(self, current):
        i = 0
        n = current.shape[0]
        while i < n and current[i] < self.stall_amps:
            i += 1
        return i

    def forward(self, times, current):
        n_sheets = times.shape[0]
        jams = torch.zeros(4)      # reg->transfer, transfer->fuser, fuser->exit, motor stall
        slips = torch.zeros(3)
        delivered = torch.zeros(())
        purged = torch.zeros(())
        state = FEEDING
        purge_left = 0
        for s in range(n_sheets):
            if state == RECOVER:
                purged += 1
                purge_left -= 1
                if purge_left == 0:
                    state = FEEDING
                continue
            jammed = False
            for k in range(1, 4):
                if times[s, k] < 0:
                    jams[k - 1] += 1
                    jammed = True
                    break
                if times[s, k] - times[s, k - 1] > self.slip_factor * self.nominal_ms[k - 1]:
                    slips[k - 1] += 1
            if jammed:
                state = RECOVER
                purge_left = self.purge_sheets
            else:
                delivered += 1

        stall_at = self.time_to_stall(current)
        if stall_at < current.shape[0] and not jams[:3].sum() > 0:
            jams[3] += 1  # motor stalled without a paper jam explaining it
        feats = torch.cat([slips / n_sheets, jams[3:], (delivered / n_sheets).view(1)])
        wear = torch.sigmoid(self.wear(feats))
        return jams, slips, torch.stack([delivered, purged]), wear


def model():
    torch.manual_seed(67)
    return PaperPathMonitor().eval()


def _sheet(gaps, t0=0.0):
    """gaps: transit times for the three sections, None = jam there"""
    row, t = [t0], t0
    for g in gaps:
        if g is None or t < 0:
            t = -1.0
        else:
            t = t + g
        row.append(t)
    return row


def _log(sheets, current):
    times = torch.tensor([_sheet(g, 1000.0 * i) for i, g in enumerate(sheets)], dtype=torch.float32)
    return times, torch.tensor(current, dtype=torch.float32)


OK = (124.0, 176.5, 151.2)


def example_inputs():
    # sheet 2 slips in the transfer section, sheet 3 jams in the fuser -> sheets 4, 5 purged; no stall
    cur = [1.1 + 0.05 * (i % 5) for i in range(32)]
    return _log([OK, OK, (122.0, 301.0, 149.0), (125.0, 178.0, None), OK, OK, OK, (126.0, 175.0, 152.0)], cur)


def dynamic_shapes():
    return ({0: Dim("sheets", min=2, max=40)}, {0: Dim("current_samples", min=8, max=256)})


def verify_inputs():
    cur_stall = [1.2] * 10 + [3.1] * 10
    return [
        example_inputs(),  # slip, jam at section 3 (inner loop breaks on 3rd pass), two purged sheets, state back to FEEDING; no stall
        # jam in the first section (inner loop breaks at once), purge, slip + jam at exit, last sheet still purging;
        # motor stall at sample 10 but paper jams explain it
        _log([(None, None, None), OK, OK, (240.0, 177.0, None), OK], cur_stall),
        _log([OK, OK, OK], [2.9] + [1.0] * 11),  # clean run; current already over the stall limit at sample 0 -> stall counted
    ]
