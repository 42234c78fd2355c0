"""Community-pharmacy medication synchronisation ("med sync"): choose one pickup day on
which all of a patient's chronic prescriptions can be refilled together.

days_left[i]: days of supply the patient still has; fill_days[i]: normal fill length;
flags[i] = (controlled substance, refills remaining). Prescriptions without refills,
and controlled drugs not yet 75 % used, are left out of the sync. A candidate day is
invalid when some drug would be refilled too early for the insurer (more than 25 % of
its fill left on that day). Among valid days the cheapest plan wins; short fills are
weighted by a learned adherence-risk score.
Outputs: sync day (-1 if impossible), short-fill days per drug, excluded mask.
"""
import torch
import torch.nn as nn


class AdherenceRisk(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, 6), nn.ReLU(), nn.Linear(6, 1))

    def forward(self, feats):
        return torch.sigmoid(self.net(feats)).squeeze(-1)


class RefillSynchronizer(nn.Module):
    def __init__(self, horizon_cap=45, min_short_fill=3, tiny_fill_penalty=5.0,
                 controlled_min_used=0.75, early_refill_frac=0.25, good_enough=1.0):
        super().__init__()
        self.risk = AdherenceRisk()
        self.horizon_cap, self.min_short_fill = horizon_cap, min_short_fill
        self.tiny_fill_penalty = tiny_fill_penalty
        self.controlled_min_used, self.early_refill_frac = controlled_min_used, early_refill_frac
        self.good_enough = good_enough

    def eligible(self, days_left, fill_days, controlled, refills):
        if refills < 1:
            return torch.tensor(False)  # needs a new prescription from the prescriber first
        if controlled > 0.5:
            return 1.0 - days_left / fill_days >= self.controlled_min_used
        return torch.tensor(True)

    def forward(self, days_left, fill_days, flags):
        n = days_left.shape[0]
        fill = fill_days.float()
        keep = []
        for i in range(n):
            keep.append(self.eligible(days_left[i], fill[i], flags[i, 0], flags[i, 1]))
        keep = torch.stack(keep)
        excluded = (~keep).float()
        if keep.sum() < 2:
            return torch.tensor(-1), torch.zeros(n), excluded  # nothing to synchronise
        risk = self.risk(torch.stack([days_left / 30.0, fill / 90.0, flags[:, 0]], dim=1))
        horizon = int(torch.clamp(days_left[keep].max().ceil(), max=self.horizon_cap).item())
        best_day, best_cost = -1, None
        for day in range(horizon + 1):
            cost = torch.zeros(())
            for i in range(n):
                if not keep[i]:
                    continue
                short = day - days_left[i]  # > 0: supply to bridge now; < 0: left over
                if short < 0 and -short > self.early_refill_frac * fill[i]:
                    break  # insurer would reject this refill as too early
                if short >= 1 and short < self.min_short_fill:
                    cost = cost + self.tiny_fill_penalty  # a 1-2 day fill is not worth a trip
                cost = cost + short.abs() * (1.0 + risk[i])
            else:
                if best_day < 0 or cost < best_cost:
                    best_day, best_cost = day, cost
                    if best_cost < self.good_enough:
                        break  # practically perfect alignment already
        if best_day < 0:
            return torch.tensor(-1), torch.zeros(n), excluded
        short_fill = (best_day - days_left).clamp(min=0.0) * keep.float()
        return torch.tensor(best_day), short_fill, excluded


def model():
    torch.manual_seed(5820)
    return RefillSynchronizer().eval()


def _patient(days_left, fill_days, controlled, refills):
    return (torch.tensor(days_left, dtype=torch.float32), torch.tensor(fill_days),
            torch.stack([torch.tensor(controlled, dtype=torch.float32),
                         torch.tensor(refills, dtype=torch.float32)], dim=1))


def example_inputs():
    # statin, ACE inhibitor, metformin, an opioid 80 % used, an inhaler without refills
    return _patient([12.4, 20.2, 5.3, 6.1, 9.0], [30, 30, 30, 30, 30], [0, 0, 0, 1, 0],
                    [5, 3, 2, 1, 0])


def dynamic_shapes():
    meds = torch.export.Dim("meds", min=2, max=12)
    return ({0: meds}, {0: meds}, {0: meds})


def verify_inputs():
    g = torch.Generator().manual_seed(20)
    many_left = (15.0 + 20.0 * torch.rand(12, generator=g)).tolist()
    return [
        # opioid 80 % used is synced, inhaler without refills excluded; best day 13
        example_inputs(),
        # 12 drugs on 30/90-day fills, 15-35 days left: early days rejected as too early,
        # one controlled drug not yet 75 % used is excluded
        _patient(many_left, [90, 30] * 6, [0] * 11 + [1], [3] * 12),
        # 2 drugs, one without refills: nothing to synchronise (early return)
        _patient([10.0, 14.0], [30, 30], [0, 0], [2, 0]),
        # nearly aligned already: a day with cost below 1 stops the search at once
        _patient([7.1, 7.3, 7.05], [30, 30, 30], [0, 0, 0], [1, 1, 1]),
        # 80 days left on a 90-day drug, 2 days on a 30-day one: no valid day in the horizon
        _patient([2.0, 80.0], [30, 90], [0, 0], [1, 1]),
    ]
