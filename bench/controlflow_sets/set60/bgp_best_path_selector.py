"""BGP decision process on one prefix's Adj-RIB-In, with learned flap damping and ECMP."""
import torch
import torch.nn as nn
from torch.export import Dim

# route columns
LOCAL_PREF, AS_PATH_LEN, ORIGIN, MED, IS_EBGP, ROUTER_ID, NEXTHOP_OK = range(7)


def better(a, b, same_neighbor_as):
    """True if route a beats route b (RFC 4271 9.1.2.2, simplified)."""
    if a[LOCAL_PREF] != b[LOCAL_PREF]:
        return bool(a[LOCAL_PREF] > b[LOCAL_PREF])
    if a[AS_PATH_LEN] != b[AS_PATH_LEN]:
        return bool(a[AS_PATH_LEN] < b[AS_PATH_LEN])
    if a[ORIGIN] != b[ORIGIN]:
        return bool(a[ORIGIN] < b[ORIGIN])
    if same_neighbor_as and a[MED] != b[MED]:  # MED only compared within one neighbour AS
        return bool(a[MED] < b[MED])
    if a[IS_EBGP] != b[IS_EBGP]:
        return bool(a[IS_EBGP] > b[IS_EBGP])
    return bool(a[ROUTER_ID] < b[ROUTER_ID])  # router ids are unique: final tie-break


def equal_cost(a, b):
    return bool((a[:IS_EBGP + 1] == b[:IS_EBGP + 1]).all())


class BestPathSelector(nn.Module):
    def __init__(self, max_paths=2, suppress_limit=2.0):
        super().__init__()
        self.max_paths = max_paths
        self.suppress_limit = suppress_limit
        self.decay_logits = nn.Parameter(torch.randn(4))  # learned per-window flap decay

    def forward(self, routes, neighbor_as, flap_hist):
        # routes (R, 7); neighbor_as (R,) int; flap_hist (R, 4) flaps in the last 4 windows
        penalty = (flap_hist * torch.sigmoid(self.decay_logits)).sum(-1)
        best = -1
        usable = []
        for i in range(routes.shape[0]):
            r = routes[i]
            if r[NEXTHOP_OK] < 0.5 or penalty[i] > self.suppress_limit:
                usable.append(torch.tensor(0))
                continue
            usable.append(torch.tensor(1))
            if best < 0 or better(r, routes[best], bool(neighbor_as[i] == neighbor_as[best])):
                best = i
        usable = torch.stack(usable)
        if best < 0:
            return torch.tensor(-1), usable, torch.tensor(0)
        n_paths = 1  # ECMP: install up to max_paths equal-cost routes next to the best
        for i in range(routes.shape[0]):
            if n_paths >= self.max_paths:
                break
            if i != best and usable[i] == 1 and equal_cost(routes[i], routes[best]):
                n_paths += 1
        return torch.tensor(best), usable, torch.tensor(n_paths)


def model():
    torch.manual_seed(6004)
    return BestPathSelector().eval()


def _rib(rows, asns, flaps=None):
    r = torch.tensor(rows, dtype=torch.float32)
    f = torch.zeros(len(rows), 4) if flaps is None else torch.tensor(flaps, dtype=torch.float32)
    return r, torch.tensor(asns), f


def example_inputs():
    return _rib([[100, 3, 0, 10, 1, 7, 1], [100, 2, 0, 50, 0, 4, 1],
                 [120, 4, 1, 0, 1, 9, 1], [90, 1, 0, 0, 1, 2, 1]], [65001, 65002, 65003, 65001])


def dynamic_shapes():
    r = Dim("routes", min=2, max=32)
    return ({0: r}, {0: r}, {0: r})


def verify_inputs():
    big = [[100, 2 + i % 3, i % 2, 10 * (i % 4), i % 2, 100 + i, 1] for i in range(32)]
    return [
        example_inputs(),  # example: highest LOCAL_PREF wins outright
        _rib([[100, 3, 0, 5, 1, 3, 1], [100, 2, 0, 9, 1, 8, 1]], [1, 2]),   # min: AS path length
        _rib([[100, 2, 1, 5, 1, 3, 1], [100, 2, 0, 9, 1, 8, 1], [100, 2, 0, 4, 1, 6, 1],
              [100, 2, 0, 4, 0, 1, 1], [100, 2, 0, 4, 1, 2, 1]],
             [7, 9, 9, 8, 8]),  # origin, MED within AS 9, eBGP over iBGP, router id, ECMP pair
        _rib([[100, 2, 0, 5, 1, 3, 0], [100, 2, 0, 5, 1, 4, 1], [100, 2, 0, 5, 1, 5, 1]],
             [1, 1, 1], [[0] * 4, [9, 9, 9, 9], [0] * 4]),   # nexthop down + damped route skipped
        _rib([[100, 2, 0, 5, 1, 3, 0], [100, 2, 0, 5, 1, 4, 0]], [1, 2]),  # nothing usable
        _rib(big, [64512 + i % 5 for i in range(32)]),  # max routes: ECMP capped at max_paths
    ]
