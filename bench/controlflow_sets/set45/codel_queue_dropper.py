"""CoDel active queue management replayed over a trace of dequeued packets:
sojourn-time tracking, the dropping state with the inverse-sqrt control law,
ECN marking instead of dropping for ECN-capable flows, and expedited traffic
that is never touched. A small learned head predicts link utilisation.

Kind X. Constructs: 1, 2, 3, 5, 6, 9.
"""
import math

import torch
import torch.nn as nn
from torch.export import Dim


class CoDel(nn.Module):
    def __init__(self, target_ms=5.0, interval_ms=100.0, ef_dscp=46, use_ecn=True):
        super().__init__()
        self.target = target_ms
        self.interval = interval_ms
        self.ef_dscp = ef_dscp
        self.use_ecn = use_ecn
        self.util_head = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))

    def control_law(self, t, count):
        return t + self.interval / math.sqrt(count)

    def forward(self, now_ms, sojourn_ms, flags):
        # now_ms: [N] dequeue timestamps, sojourn_ms: [N] time spent queued
        # flags: [N, 2] int header fields (dscp, ecn_capable bit)
        n = now_ms.shape[0]
        drop = torch.zeros(n)
        mark = torch.zeros(n)
        dropping = False
        first_above = None
        drop_next = torch.zeros(())
        count = 0
        for i in range(n):
            now, s = now_ms[i], sojourn_ms[i]
            if flags[i, 0] == self.ef_dscp:
                continue  # voice traffic bypasses AQM
            ok_to_drop = False
            if s < self.target:
                first_above = None
            elif first_above is None:
                first_above = now + self.interval
            elif now >= first_above:
                ok_to_drop = True

            signal = False
            if dropping:
                if not ok_to_drop:
                    dropping = False  # queue recovered
                elif now >= drop_next:
                    count += 1
                    drop_next = self.control_law(drop_next, count)
                    signal = True
            elif ok_to_drop:
                dropping = True
                count = count - 2 if count > 2 else 1  # resume near the old rate
                drop_next = self.control_law(now, count)
                signal = True
            if not signal:
                continue
            if self.use_ecn and flags[i, 1] == 1:
                mark[i] = 1.0
            else:
                drop[i] = 1.0
        feats = torch.stack([drop.mean(), mark.mean(), sojourn_ms.mean() / 100.0, torch.tensor(float(count)) / 10.0])
        return drop, mark, torch.sigmoid(self.util_head(feats)).squeeze()


def model():
    torch.manual_seed(12)
    return CoDel().eval()


def _trace(sojourns, ef=(), ecn=(), spacing=7.0):
    n = len(sojourns)
    now = torch.arange(n, dtype=torch.float32) * spacing + 3.0
    flags = torch.zeros(n, 2, dtype=torch.long)
    for i in ef:
        flags[i, 0] = 46
    for i in ecn:
        flags[i, 1] = 1
    return now, torch.tensor(sojourns, dtype=torch.float32), flags


def _burst(n_low, n_high, n_tail, high=30.0):
    return [1.5] * n_low + [high] * n_high + [1.5] * n_tail


def example_inputs():
    # standing queue for ~0.4 s then it drains; some EF and ECN packets inside
    return _trace(_burst(5, 60, 10), ef=(20, 41), ecn=(30, 33, 36, 39, 42, 45))


def dynamic_shapes():
    n = Dim("packets", min=2, max=512)
    return ({0: n}, {0: n}, {0: n})


def verify_inputs():
    return [
        example_inputs(),  # enter dropping, several drops/marks, EF skipped, leave dropping when drained
        _trace([1.0, 2.0]),  # min size, queue always below target: nothing happens
        _trace(_burst(3, 10, 3)),  # above target for < interval: first_above set, never ok to drop
        _trace(_burst(2, 120, 5) + _burst(0, 40, 5)),  # two bursts: re-entering dropping with count > 2
        _trace(_burst(0, 512, 0, high=12.0), ecn=tuple(range(0, 512, 2))),  # max size, persistent queue: many drops, half marked
        _trace(_burst(1, 30, 1), ef=tuple(range(32))),  # all EF: continue on every packet
    ]
