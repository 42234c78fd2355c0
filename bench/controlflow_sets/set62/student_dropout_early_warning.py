"""Early-warning system for students at risk of dropping out of an online course.

Weekly LMS activity (logins, minutes, submissions, forum posts, quiz score,
late flags) is encoded with a GRU; three risk heads (academic, engagement,
financial-aid) are blended with fixed policy weights. Early in the term the
sequence is left-padded to a minimum context length. Students with no logins
in the last two weeks are escalated, unless a large share of the cohort went
silent at once (likely an LMS outage), in which case alerts are damped.

Kind: T.  Constructs: 1, 7, 8, 9.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class DropoutRiskModel(nn.Module):
    def __init__(self, n_feat=6, hidden=16, min_weeks=4, head_weights=(0.5, 0.3, 0.2),
                 outage_count=3):
        super().__init__()
        self.gru = nn.GRU(n_feat, hidden, batch_first=True)
        self.dropout = nn.Dropout(0.2)
        self.heads = nn.ModuleList([nn.Linear(hidden, 1) for _ in head_weights])
        self.head_weights = list(head_weights)
        self.min_weeks = min_weeks
        self.outage_count = outage_count

    def pad_to_min_weeks(self, activity):
        if activity.shape[1] < self.min_weeks:
            missing = self.min_weeks - activity.shape[1]
            pad = activity.new_zeros(activity.shape[0], missing, activity.shape[2])
            activity = torch.cat([pad, activity], dim=1)
        return activity

    def forward(self, activity):
        # activity: [students, weeks, 6]
        seq = self.pad_to_min_weeks(activity)
        _, h = self.gru(seq)
        h = self.dropout(h[-1])

        risk = torch.zeros(h.shape[0])
        for w, head in zip(self.head_weights, self.heads):
            risk = risk + w * torch.sigmoid(head(h)).squeeze(1)

        recent_logins = activity[:, -2:, 0].sum(dim=1)
        inactive = recent_logins < 0.5
        n_inactive = inactive.sum()
        if n_inactive == 0:
            alert = risk
        elif n_inactive.item() < self.outage_count:
            # silent students go straight to the advisor queue
            alert = torch.where(inactive, torch.ones_like(risk), risk)
        else:
            # too many went silent at once: probably an outage, damp alerts
            alert = 0.5 * risk
        return alert, risk


def model():
    torch.manual_seed(623)
    return DropoutRiskModel().eval()


def _activity(students, weeks, seed, silent=()):
    g = torch.Generator().manual_seed(seed)
    a = torch.rand(students, weeks, 6, generator=g)
    a[..., 0] = 1.0 + torch.randint(0, 5, (students, weeks), generator=g).float()  # logins >= 1
    for s in silent:
        a[s, -2:, 0] = 0.0
    return a


def example_inputs():
    return (_activity(6, 10, 1),)


def dynamic_shapes():
    return ({0: Dim("students", min=2, max=64), 1: Dim("weeks", min=2, max=40)},)


def verify_inputs():
    return [
        example_inputs(),                             # 10 weeks, nobody silent: no padding, alert = risk
        (_activity(5, 2, 2, silent=(3,)),),           # week 2 of term: padded to 4 weeks; 1 silent student -> escalate
        (_activity(8, 12, 3, silent=(0, 2, 4, 6)),),  # 4 silent students -> outage damping
        (_activity(3, 4, 4, silent=(0, 1)),),         # exactly min_weeks (no pad); 2 silent -> escalate
        (_activity(2, 3, 5),),                        # 2 students, week 3: padded, nobody silent
    ]
