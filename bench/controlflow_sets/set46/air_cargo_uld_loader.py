"""X: air-freight build-up planner: assign shipments to unit load devices (ULDs) in priority
order, first fit on weight and volume, with dangerous-goods segregation.

weight (N,) kg, volume (N,) m^3, priority (N,) higher first, dg (N,) 1.0 if dangerous goods.
Returns assignment (N,) ULD index or -1 (offloaded), ULD loads (3, 2) [kg, m^3], and a
(1,) flag whether any priority shipment (priority > 0.8) was offloaded.
Constructs: 1, 2, 3, 5, 6, 9
"""
import torch
import torch.nn as nn

ULDS = [  # (name, max kg, max m^3, may carry dangerous goods)
    ("AKE", 1500.0, 4.3, False),
    ("AKE", 1500.0, 4.3, True),
    ("PMC", 5000.0, 11.5, True),
]


class ULDLoader(nn.Module):
    def __init__(self, reserve_last_for_priority=True):
        super().__init__()
        self.reserve = reserve_last_for_priority

    def forward(self, weight, volume, priority, dg):
        N = weight.shape[0]
        loads = torch.zeros(len(ULDS), 2)
        assign = torch.full((N,), -1.0)
        dg_count = [0 for _ in ULDS]
        order = torch.argsort(priority, descending=True)
        for idx in order.tolist():
            w, v = weight[idx], volume[idx]
            if w <= 0 or v <= 0:
                continue  # cancelled booking
            for u, (_, max_kg, max_m3, dg_ok) in enumerate(ULDS):
                if dg[idx] > 0.5 and not dg_ok:
                    continue
                if self.reserve and u == len(ULDS) - 1 and priority[idx] < 0.3:
                    continue
                if loads[u, 0] + w <= max_kg and loads[u, 1] + v <= max_m3:
                    # at most two DG pieces per ULD
                    if dg[idx] > 0.5:
                        if dg_count[u] >= 2:
                            continue
                        dg_count[u] += 1
                    loads[u, 0] += w
                    loads[u, 1] += v
                    assign[idx] = float(u)
                    break
        offloaded = (assign < 0) & (priority > 0.8) & (weight > 0)
        return assign, loads, offloaded.any().float().reshape(1)


def _manifest(N, seed, heavy=False, n_dg=0, cancelled=0):
    g = torch.Generator().manual_seed(seed)
    weight = 40.0 + 260.0 * torch.rand(N, generator=g)
    if heavy:
        weight = weight * 4.0
    volume = weight / 180.0 + 0.1 * torch.rand(N, generator=g)
    priority = (torch.randperm(N, generator=g).float() + 0.5) / N
    dg = torch.zeros(N)
    dg[:n_dg] = 1.0
    weight[N - cancelled:] = 0.0
    return weight, volume, priority, dg


def model():
    torch.manual_seed(4620)
    return ULDLoader().eval()


def example_inputs():
    return _manifest(12, 1, n_dg=3, cancelled=1)


def dynamic_shapes():
    N = torch.export.Dim("shipments", min=2, max=128)
    return ({0: N}, {0: N}, {0: N}, {0: N})


def verify_inputs():
    return [
        example_inputs(),                          # DG skips the first AKE, one cancelled booking
        _manifest(2, 2),                           # N=min: both fit in the first ULD
        _manifest(40, 3, heavy=True, n_dg=6),      # overbooked: offloads incl. priority cargo, DG cap reached
        _manifest(128, 4, n_dg=4, cancelled=3),    # N=max: everything full, many offloads
    ]
