"""Artistic gymnastics (bars / beam) scoring: D-score from the 8 best counting elements
(dismount included), composition requirements and connection value; E-score from a learned
landing / form deduction model. Element values: A=1 .. H=8 tenths."""
import torch
import torch.nn as nn
from torch.export import Dim

EID, VALUE, GROUP, CONNECTED, FALL = range(5)
DISMOUNT = 4


def counting_elements(elements):
    seen, counted = set(), []
    for k in range(elements.shape[0]):
        eid = int(elements[k, EID])
        if eid in seen:
            continue  # a repeated element receives no value the second time
        seen.add(eid)
        counted.append(k)
    return counted


def best_eight(elements, counted):
    """8 highest values, the dismount always counts; ties: the earlier element wins."""
    dismounts = [k for k in counted if elements[k, GROUP] == DISMOUNT]
    pool = [k for k in counted if k not in dismounts[-1:]]
    pool.sort(key=lambda k: (-float(elements[k, VALUE]), k))
    chosen = dismounts[-1:] + pool[:8 - len(dismounts[-1:])]
    return sorted(chosen)


def connection_value(elements, seq):
    cv, n_conn, i = torch.zeros(()), 0, 0
    while i < len(seq) - 1:
        a, b = elements[seq[i]], elements[seq[i + 1]]
        if a[CONNECTED] < 0.5 or a[FALL] > 0.5 or b[FALL] > 0.5:
            i += 1
            continue
        low = torch.minimum(a[VALUE], b[VALUE])
        if low >= 4:
            cv, n_conn = cv + 0.2, n_conn + 1  # D + D or better
        elif low >= 3:
            cv, n_conn = cv + 0.1, n_conn + 1  # C + C
        i += 2  # an element is used in one connection only
    return cv, n_conn


class DScoreTallier(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(3, 8, batch_first=True)
        self.ded = nn.Linear(8, 1)

    def forward(self, elements, landings):
        # elements (K, 5): id, value, group 1-4, connected-to-next, fall; landings (K, 3)
        counted = counting_elements(elements)
        h, _ = self.gru(landings.unsqueeze(0))
        per_elem = 0.3 * torch.sigmoid(self.ded(h[0])).squeeze(1)  # form / landing deductions
        e_score = (10.0 - per_elem.sum() - elements[:, FALL].sum()).clamp(min=0.0)
        if len(counted) < 3:
            return torch.zeros(()), e_score, e_score, torch.tensor([0, 4])  # too short: no D
        chosen = best_eight(elements, counted) if len(counted) > 8 else counted
        dv = elements[chosen, VALUE].sum() / 10.0
        cr, missing = torch.zeros(()), 0
        for g in range(1, 5):
            for k in chosen:
                if elements[k, GROUP] == g:
                    cr = cr + 0.5
                    break
            else:
                missing += 1  # composition requirement not shown: no credit
        cv, n_conn = connection_value(elements, counted)
        d_score = dv + cr + cv
        return d_score, e_score, d_score + e_score, torch.tensor([n_conn, missing])


def model():
    torch.manual_seed(6019)
    return DScoreTallier().eval()


def _routine(rows, seed):
    g = torch.Generator().manual_seed(seed)
    el = torch.tensor(rows, dtype=torch.float32)
    return el, 0.5 * torch.rand(el.shape[0], 3, generator=g)


EXAMPLE = [[11, 3, 1, 1, 0], [12, 4, 2, 0, 0], [13, 2, 1, 1, 0], [14, 4, 3, 0, 0],
           [15, 5, 2, 1, 0], [16, 4, 3, 0, 0], [17, 3, 1, 0, 1], [18, 6, 4, 0, 0]]


def example_inputs():
    return _routine(EXAMPLE, 1)


def dynamic_shapes():
    k = Dim("elements", min=2, max=20)
    return ({0: k}, {0: k})


def verify_inputs():
    long = [[20 + k % 14, 1 + (5 * k) % 7, 1 + k % 3, k % 2, 1 if k == 9 else 0] for k in range(19)]
    return [
        _routine(EXAMPLE, 1),                                   # example: 8 elements, all count
        _routine([[1, 2, 1, 1, 0], [2, 3, 2, 0, 0]], 2),        # min: too short, no D-score
        _routine(long + [[99, 5, 4, 0, 0]], 3),                 # max: repeats, best 8, dismount
        _routine([[5, 3, 1, 1, 0], [6, 3, 2, 1, 0], [7, 4, 3, 0, 0], [8, 2, 1, 1, 0],
                  [9, 5, 3, 0, 1]], 4),                         # no dismount, C+C, fall breaks
    ]
