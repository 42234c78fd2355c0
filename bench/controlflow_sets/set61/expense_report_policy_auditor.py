"""Travel expense report auditor.

Walks the line items of an expense report, skipping reversal lines, flagging
missing receipts, back-to-back duplicates and amounts over the per-category
limit, and totals the reimbursable amount.  A small scorer turns category
embedding + amount + flag into an audit-risk score; a report with most lines
flagged goes to manual review as a whole.

KIND T.  Constructs: 1 (if on tensor comparisons), 2 (variable reassigned in
one branch only), 3 (and/not on tensor predicates), 5 (for over the dynamic
number of line items, list.append + torch.stack), 6 (continue on tensor
conditions).
"""
import torch
import torch.nn as nn
from torch.export import Dim

KIND = "T"
CONSTRUCTS = (1, 2, 3, 5, 6)

# lodging, meals, airfare, taxi, entertainment
CATEGORY_LIMITS = [250.0, 75.0, 900.0, 60.0, 150.0]


class ExpenseReportAuditor(nn.Module):
    def __init__(self, receipt_threshold=25.0, emb_dim=8):
        super().__init__()
        self.register_buffer("limits", torch.tensor(CATEGORY_LIMITS))
        self.receipt_threshold = receipt_threshold
        self.cat_emb = nn.Embedding(len(CATEGORY_LIMITS), emb_dim)
        self.scorer = nn.Sequential(nn.Linear(emb_dim + 2, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, amounts, categories, has_receipt):
        # amounts: (N,) float, categories: (N,) long, has_receipt: (N,) bool
        n = amounts.shape[0]
        flags = []
        reimbursable = torch.zeros(())
        for i in range(n):
            amt = amounts[i]
            if amt <= 0:
                # reversal / refund line: nothing to audit
                flags.append(torch.zeros(()))
                continue
            limit = self.limits[categories[i]]
            if amt > self.receipt_threshold and not has_receipt[i]:
                flags.append(torch.ones(()))
                continue
            if i > 0 and amounts[i] == amounts[i - 1] and categories[i] == categories[i - 1]:
                # same amount, same category, consecutive lines: double submission
                flags.append(torch.ones(()))
                continue
            flags.append((amt > limit).float())
            reimbursable = reimbursable + torch.minimum(amt, limit)
        flags = torch.stack(flags)

        emb = self.cat_emb(categories)
        feats = torch.cat([emb, (amounts / 100.0).unsqueeze(1), flags.unsqueeze(1)], dim=1)
        risk = torch.sigmoid(self.scorer(feats)).squeeze(1)
        if flags.sum() > 0.5 * n:
            # more than half the report is flagged: whole report to manual review
            risk = torch.ones_like(risk)
        return flags, risk, reimbursable


def model():
    torch.manual_seed(61003)
    return ExpenseReportAuditor().eval()


def make_report(rows):
    amounts = torch.tensor([r[0] for r in rows])
    cats = torch.tensor([r[1] for r in rows], dtype=torch.long)
    rec = torch.tensor([r[2] for r in rows], dtype=torch.bool)
    return amounts, cats, rec


def example_inputs():
    # hotel, two meals, taxi without receipt under threshold, airfare
    return make_report([(189.0, 0, True), (42.5, 1, True), (18.0, 1, False),
                        (22.0, 3, False), (640.0, 2, True)])


def dynamic_shapes():
    n = Dim("items", min=2, max=128)
    return ({0: n}, {0: n}, {0: n})


def verify_inputs():
    return [
        # all lines clean: no continue taken, every line reimbursed, not escalated
        example_inputs(),
        # reversal (continue), missing receipt over 25 (continue), duplicate taxi (continue),
        # over-limit meal (flag 1) -> 3 of 5 flagged > half: escalated
        make_report([(-42.5, 1, True), (95.0, 1, False), (30.0, 3, True),
                     (30.0, 3, True), (110.0, 1, True)]),
        # same amount but different category (not duplicate), over-limit lodging;
        # first line i == 0 short-circuits the duplicate test; 1 of 3 flagged: not escalated
        make_report([(300.0, 0, True), (300.0, 2, True), (45.0, 1, True)]),
        # missing receipt but amount below threshold (receipt not required), reversal at the end
        make_report([(12.0, 1, False), (55.0, 4, True), (-55.0, 4, True)]),
    ]
