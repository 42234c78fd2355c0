"""5G network-slice admission control at a gNB.

Session requests arrive in order; each names its slice (eMBB, URLLC, mMTC), the
bandwidth it needs, its latency budget and its priority.  Each slice has its own
policy module (URLLC refuses budgets below the air-interface minimum, mMTC
batches small devices, eMBB scores with a learned model).  When the slice is
full, lower-priority sessions already admitted to that slice are pre-empted,
lowest priority first, until the newcomer fits.
"""
import torch
import torch.nn as nn
from torch.export import Dim

EMBB, URLLC, MMTC = 0, 1, 2


class EmbbPolicy(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, req):
        return torch.sigmoid(self.net(req[:3] / torch.tensor([100.0, 50.0, 10.0])))[0]


class UrllcPolicy(nn.Module):
    def __init__(self, min_latency_ms=1.0):
        super().__init__()
        self.min_latency_ms = min_latency_ms

    def forward(self, req):
        if req[1] < self.min_latency_ms:
            return torch.zeros(())           # cannot be met over the air, refuse
        return torch.ones(())


class MmtcPolicy(nn.Module):
    def __init__(self, batch_mbps=0.5):
        super().__init__()
        self.batch_mbps = batch_mbps

    def forward(self, req):
        score = torch.ones(())
        if req[0] > 10 * self.batch_mbps:
            score = score * 0.4              # not really machine-type traffic
        return score


class SliceAdmission(nn.Module):
    def __init__(self):
        super().__init__()
        self.policies = nn.ModuleList([EmbbPolicy(), UrllcPolicy(), MmtcPolicy()])
        self.accept_score = 0.3
        self.min_free_mbps = 1.0

    def forward(self, requests, capacity):
        # requests: [N, 4] = bandwidth Mbps, latency budget ms, priority, slice id
        n = requests.shape[0]
        free = capacity.clone()
        admitted = torch.zeros(n, dtype=torch.bool)
        preempted = torch.zeros(n, dtype=torch.bool)
        onehot = torch.eye(capacity.shape[0])
        for i in range(n):
            req = requests[i]
            sl = req[3]
            if sl == EMBB:
                score = self.policies[EMBB](req)
            elif sl == URLLC:
                score = self.policies[URLLC](req)
            else:
                score = self.policies[MMTC](req)
            if score < self.accept_score:
                continue
            k = sl.long()
            need = req[0]
            same_slice = requests[:, 3] == sl
            while free[k] < need and (admitted & same_slice & (requests[:, 2] < req[2])).any():
                victims = admitted & same_slice & (requests[:, 2] < req[2])
                v = torch.where(victims, requests[:, 2], torch.full_like(requests[:, 2], 1e9)).argmin()
                admitted[v] = False
                preempted[v] = True
                free = free + requests[v, 0] * onehot[k]
            if free[k] < need:
                continue
            admitted[i] = True
            free = free - need * onehot[k]
            if (free < self.min_free_mbps).all():
                break                          # cell is full
        return admitted, preempted, free


def model():
    torch.manual_seed(13)
    return SliceAdmission().eval()


def example_inputs():
    req = torch.tensor([[40.0, 50.0, 3.0, EMBB],
                        [5.0, 2.0, 8.0, URLLC],
                        [0.3, 1000.0, 1.0, MMTC],
                        [55.0, 40.0, 2.0, EMBB],
                        [30.0, 30.0, 9.0, EMBB],
                        [4.0, 0.5, 7.0, URLLC],
                        [8.0, 500.0, 1.5, MMTC]])
    return req, torch.tensor([100.0, 20.0, 10.0])


def dynamic_shapes():
    return ({0: Dim("requests", min=2, max=48)}, None)


def verify_inputs():
    full = torch.tensor([[6.0, 3.0, 5.0, URLLC],
                         [3.0, 800.0, 2.0, MMTC],
                         [50.0, 20.0, 4.0, EMBB],
                         [9.0, 5.0, 6.0, URLLC],
                         [70.0, 20.0, 1.0, EMBB]])
    preempt_many = torch.tensor([[4.0, 3.0, 1.0, URLLC],
                                 [5.0, 3.0, 2.0, URLLC],
                                 [6.0, 3.0, 3.0, URLLC],
                                 [14.5, 2.0, 9.0, URLLC],
                                 [30.0, 2.0, 9.5, URLLC]])
    return [
        example_inputs(),                                # mixed slices, one eMBB pre-emption, refused URLLC & batched mMTC
        (full, torch.tensor([50.5, 15.5, 3.2])),          # all slices nearly full -> early break
        (preempt_many, torch.tensor([60.0, 20.0, 5.0])),  # several victims evicted in one while loop; last can't fit even so
    ]
