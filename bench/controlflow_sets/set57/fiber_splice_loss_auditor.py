"""Acceptance audit of fusion splices on a newly built fiber span.

The OTDR is shot from both ends; the true splice loss is the average of the
two directional readings (one direction alone can even show a "gainer").
Each splice is checked against the contract limit, splices inside the
launch-cable dead zone are skipped, and the span's loss budget is compared
with the design limit (worst-case sum for short spans, root-sum-square
style statistics for spans with many splices).
"""
import torch
import torch.nn as nn

PASS, RESPLICE, GAINER_PASS, NOT_MEASURABLE = 0, 1, 2, 3


class SpliceAuditor(nn.Module):
    def __init__(self, max_splice_db=0.15, dead_zone_km=0.1, fiber_db_per_km=0.35, connector_db=0.5,
                 budget_db=12.0, many_splices=32):
        super().__init__()
        self.max_splice_db = max_splice_db
        self.dead_zone_km = dead_zone_km
        self.fiber_db_per_km = fiber_db_per_km
        self.connector_db = connector_db
        self.budget_db = budget_db
        self.many_splices = many_splices
        # small learned correction for mode-field-diameter mismatch between fiber batches
        self.mfd_net = nn.Sequential(nn.Linear(2, 6), nn.Tanh(), nn.Linear(6, 1), nn.Tanh())

    def forward(self, loss_ab, loss_ba, position_km, span_km):
        verdicts = []
        losses = []
        for i in range(loss_ab.shape[0]):
            if position_km[i] < self.dead_zone_km or position_km[i] > span_km - self.dead_zone_km:
                verdicts.append(torch.tensor(NOT_MEASURABLE))
                continue
            pair = torch.stack([loss_ab[i], loss_ba[i]])
            loss = pair.mean() + 0.01 * self.mfd_net(pair).squeeze(-1)
            losses.append(loss)
            if loss > self.max_splice_db:
                verdicts.append(torch.tensor(RESPLICE))
            elif pair.min() < -0.05:
                verdicts.append(torch.tensor(GAINER_PASS))
            else:
                verdicts.append(torch.tensor(PASS))

        measured = torch.stack(losses) if losses else torch.zeros(1)
        if loss_ab.shape[0] > self.many_splices:
            # many splices: mean plus two standard deviations of the ensemble
            splice_total = measured.numel() * measured.mean() + 2.0 * measured.std() * measured.numel() ** 0.5
        else:
            splice_total = measured.sum()
        span_loss = span_km * self.fiber_db_per_km + 2 * self.connector_db + splice_total
        margin = self.budget_db - span_loss
        return torch.stack(verdicts), span_loss.reshape(1), margin.reshape(1)


def model():
    torch.manual_seed(5710)
    return SpliceAuditor().eval()


N_SPLICES = torch.export.Dim("n_splices", min=2, max=96)


def _span(n, span_km, seed, bad=(), gainers=(), dead_zone=False):
    g = torch.Generator().manual_seed(seed)
    true = 0.03 + 0.04 * torch.rand(n, generator=g)
    skew = 0.05 * torch.randn(n, generator=g)
    ab, ba = true + skew, true - skew
    for i in bad:
        ab[i] += 0.3
        ba[i] += 0.25
    for i in gainers:
        ab[i] = -0.09
        ba[i] = 0.17
    pos = torch.linspace(0.0, span_km, n + 2)[1:-1]
    if dead_zone:
        pos[0] = 0.04
        pos[-1] = span_km - 0.02
    return ab, ba, pos, torch.tensor(span_km)


def example_inputs():
    # 12 splices on a 24 km span, one bad splice and one gainer
    return _span(12, 24.0, 1, bad=(5,), gainers=(8,))


def dynamic_shapes():
    return ({0: N_SPLICES}, {0: N_SPLICES}, {0: N_SPLICES}, None)


def verify_inputs():
    return [
        # worst-case budget; PASS, RESPLICE and GAINER_PASS verdicts
        example_inputs(),
        # 2 splices, both in the launch / tail dead zones -> only NOT_MEASURABLE, nothing measured
        _span(2, 0.15, 2, dead_zone=True),
        # 96 splices on a 30 km span -> statistical budget; first and last splice in dead zone
        _span(96, 30.0, 3, bad=(10, 40), dead_zone=True),
        # 40 clean splices on a long 40 km span -> statistical budget, negative margin
        _span(40, 40.0, 4),
    ]
