"""Hospital nurse-call escalation state machine.

Per-minute room telemetry (call button, nurse badge in the room, bed-exit
sensor) drives the escalation: an unanswered call goes to the charge nurse
after a timeout and to an overhead page after twice that; a bed-exit alarm
pages immediately.  The timeout depends on the patient's fall risk, which a
logistic model predicts from admission features.  Logs from the
telemetry gateway are padded with -1 rows after the feed stops.

KIND X.  Constructs: 1 (if/elif on tensor predicates), 2 (helper returns in
branches; state assigned in some branches only), 3 (and on tensor
predicates and Python state), 5 (for over the dynamic number of minutes,
append + torch.stack), 6 (continue / break on tensor conditions), 7 (risk
helper with its own branches), 9 (Python int state constants, ternary on a
Python list).
"""
import torch
import torch.nn as nn
from torch.export import Dim

KIND = "X"
CONSTRUCTS = (1, 2, 3, 5, 6, 7, 9)

IDLE, PENDING, ESCALATED, PAGED = 0, 1, 2, 3


class NurseCallEscalation(nn.Module):
    def __init__(self, n_feat=4):
        super().__init__()
        # logistic fall-risk model (age/100, prior falls, sedated, mobility score)
        self.risk_model = nn.Linear(n_feat, 1)
        with torch.no_grad():
            self.risk_model.weight.copy_(torch.tensor([[1.5, 0.8, 1.2, -2.0]]))
            self.risk_model.bias.fill_(-0.5)

    def _timeout_minutes(self, risk):
        if risk > 0.6:
            return 2
        elif risk > 0.45:
            return 4
        return 6

    def forward(self, events, patient):
        # events: (T, 3) per minute [call button, nurse in room, bed exit], -1 rows = no feed
        # patient: (4,) admission features
        risk = torch.sigmoid(self.risk_model(patient)).squeeze(0)
        timeout = self._timeout_minutes(risk)
        state = IDLE
        waited = 0
        states, responses = [], []
        for t in range(events.shape[0]):
            call, present, bed_exit = events[t].unbind()
            if call < 0:
                break  # telemetry feed ended
            if present > 0.5:
                if state != IDLE:
                    responses.append(torch.tensor(float(waited)))
                state = IDLE
                waited = 0
                states.append(torch.tensor(state))
                continue
            if bed_exit > 0.5 and state < PAGED:
                state = PAGED  # patient getting up unassisted: page now
            elif state == IDLE:
                if call > 0.5:
                    state = PENDING
                    waited = 0
            else:
                waited += 1
                if state == PENDING and waited >= timeout:
                    state = ESCALATED
                elif state == ESCALATED and waited >= 2 * timeout:
                    state = PAGED
            states.append(torch.tensor(state))
        state_log = torch.stack(states) if states else torch.zeros(0, dtype=torch.long)
        response_minutes = torch.stack(responses) if responses else torch.zeros(0)
        return state_log, response_minutes, risk


def model():
    torch.manual_seed(61017)
    return NurseCallEscalation().eval()


def make_log(spec, pad=0):
    """spec: list of (minutes, call, present, bed_exit) runs."""
    rows = []
    for n, call, present, bed in spec:
        rows += [[call, present, bed]] * n
    rows += [[-1.0, -1.0, -1.0]] * pad
    return torch.tensor(rows, dtype=torch.float32)


LOW_RISK = torch.tensor([0.35, 0.0, 0.0, 0.9])
MID_RISK = torch.tensor([0.7, 1.0, 0.0, 0.6])
HIGH_RISK = torch.tensor([0.9, 2.0, 1.0, 0.1])


def example_inputs():
    # call answered after 3 minutes (low risk, timeout 6: no escalation)
    return (make_log([(2, 0, 0, 0), (1, 1, 0, 0), (3, 0, 0, 0), (1, 0, 1, 0), (2, 0, 0, 0)]), LOW_RISK)


def dynamic_shapes():
    return ({0: Dim("minutes", min=2, max=1440)}, None)


def verify_inputs():
    return [
        # idle -> pending -> answered before the timeout
        example_inputs(),
        # mid risk (timeout 4): pending -> escalated -> paged -> answered; padded log -> break
        (make_log([(1, 1, 0, 0), (9, 0, 0, 0), (1, 0, 1, 0)], pad=3), MID_RISK),
        # high risk (timeout 2): bed exit while idle pages at once, keeps alarming while
        # paged (no further change), nurse arrives; then a visit with no open call
        (make_log([(1, 0, 0, 0), (3, 0, 0, 1), (1, 0, 1, 0), (1, 0, 1, 0), (2, 0, 0, 0)]), HIGH_RISK),
        # feed dead from the first minute: break immediately, nothing logged
        (make_log([], pad=4), LOW_RISK),
    ]
