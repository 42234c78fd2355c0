"""Match run and offer sequence for a deceased-donor kidney.

Candidates: [ABO (0 O, 1 A, 2 B, 3 AB), cPRA %, waiting years, age,
HLA mismatches 0..6, distance km, prior living donor, pediatric].
Donor: [ABO, age, KDPI %, cold ischaemia hours so far].
ABO-compatible candidates are split into the mandatory zero-mismatch share
and everybody else, each ranked by allocation points (ties by list order).
Offers go down the list; each offer costs cold ischaemia time, hard-to-place
kidneys (KDPI > 85) are not offered far away, the first acceptance (learned
acceptance model) ends the run, and so does a kidney that has been cold too
long.  Returns (ranked candidates, their points, accepted candidate or -1,
[offers made, discarded flag], final cold hours).
"""
import torch
import torch.nn as nn

ABO_RECIPIENTS = {0: (0, 1, 2, 3), 1: (1, 3), 2: (2, 3), 3: (3,)}


class AcceptanceModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, cand, donor, cold_hours):
        # surgeons mostly look at organ quality and the age match
        rule = (40.0 - donor[2]) / 15.0 - (donor[1] - cand[3]).abs() / 40.0
        x = torch.stack([cand[3] / 50.0, donor[1] / 50.0, donor[2] / 100.0,
                         cand[4] / 6.0, cold_hours / 24.0]).unsqueeze(0)
        return torch.sigmoid(2.0 * rule + 0.3 * self.mlp(x).squeeze())


class KidneyMatchRun(nn.Module):
    def __init__(self):
        super().__init__()
        self.acceptance = AcceptanceModel()
        self.accept_threshold = 0.5
        self.hours_per_offer = 1.5
        self.max_cold_hours = 30.0
        self.far_km = 500.0

    def _abo_ok(self, donor_abo, cand_abo):
        return cand_abo in ABO_RECIPIENTS[donor_abo]

    def _cpra_points(self, cpra):
        if cpra >= 98.0:
            return 50.0 + (cpra - 98.0) * 50.0      # near-unmatchable patients
        elif cpra >= 80.0:
            return 10.0 + (cpra - 80.0) * 0.5
        elif cpra >= 20.0:
            return cpra / 20.0
        return torch.zeros(())

    def _points(self, cand, kdpi):
        pts = cand[2] + self._cpra_points(cand[1]) + (6.0 - cand[4]) * 0.2
        if cand[7] > 0.5 and kdpi < 35.0:
            pts = pts + 1.0                          # pediatric priority for good kidneys
        if cand[6] > 0.5:
            pts = pts + 4.0                          # former living donors
        return pts

    def forward(self, candidates, donor):
        n = candidates.shape[0]
        donor_abo = int(donor[0].item())
        kdpi = donor[2]
        eligible = [i for i in range(n) if self._abo_ok(donor_abo, int(candidates[i, 0].item()))]
        tiers = [[i for i in eligible if candidates[i, 4] == 0],
                 [i for i in eligible if candidates[i, 4] != 0]]

        points = {i: self._points(candidates[i], kdpi) for i in eligible}
        ranked_tiers = [sorted(t, key=lambda i: (-float(points[i]), i)) for t in tiers]

        cold = donor[3]
        accepted, offers, discarded = -1, 0, 0
        for tier in ranked_tiers:
            for i in tier:
                cand = candidates[i]
                if kdpi > 85.0 and cand[5] > self.far_km:
                    continue                         # no long-distance offers for marginal kidneys
                offers += 1
                cold = cold + self.hours_per_offer
                if self.acceptance(cand, donor, cold) > self.accept_threshold:
                    accepted = i
                    break
                if cold > self.max_cold_hours:
                    discarded = 1
                    break
            else:
                continue                             # tier exhausted: next tier
            break
        else:
            discarded = 1                            # nobody accepted

        order = [i for t in ranked_tiers for i in t]
        pts = torch.stack([points[i] for i in order]) if order else torch.zeros(0)
        return (torch.tensor(order, dtype=torch.long), pts, torch.tensor(accepted),
                torch.tensor([offers, discarded]), cold)


def model():
    torch.manual_seed(5320)
    return KidneyMatchRun().eval()


def example_inputs():
    return verify_inputs()[0]


def dynamic_shapes():
    candidates = torch.export.Dim("candidates", min=2, max=200)
    return ({0: candidates}, None)


def verify_inputs():
    def waitlist(n, seed):
        g = torch.Generator().manual_seed(seed)
        abo = torch.randint(0, 4, (n,), generator=g).float()
        cpra = torch.where(torch.rand(n, generator=g) < 0.3,
                           60.0 + 40.0 * torch.rand(n, generator=g), 30.0 * torch.rand(n, generator=g))
        wait = 8.0 * torch.rand(n, generator=g)
        age = 5.0 + 70.0 * torch.rand(n, generator=g)
        mism = torch.randint(0, 7, (n,), generator=g).float()
        dist = 1500.0 * torch.rand(n, generator=g)
        prior = (torch.rand(n, generator=g) < 0.05).float()
        ped = (age < 18.0).float()
        return torch.stack([abo, cpra, wait, age, mism, dist, prior, ped], dim=1)

    return [
        # example: 60 candidates, type-A donor, age 58, KDPI 70: ABO
        # filtering, zero-mismatch tier, cPRA bands below 98, living-donor bonus;
        # pediatric candidates get no priority (KDPI >= 35); several
        # refusals, then the run stops when the kidney is cold > 30 h
        (waitlist(60, seed=1), torch.tensor([1.0, 58.0, 70.0, 12.0])),
        # 2 candidates (min), O donor, KDPI 10: the zero-mismatch pediatric
        # candidate gets pediatric priority and accepts the first offer
        (torch.tensor([[1.0, 99.0, 1.0, 12.0, 0.0, 100.0, 0.0, 1.0],
                       [0.0, 10.0, 3.0, 40.0, 2.0, 50.0, 1.0, 0.0]]),
         torch.tensor([0.0, 20.0, 10.0, 4.0])),
        # 200 candidates (max), AB donor (AB recipients only), KDPI 95, some
        # cPRA >= 98: far candidates skipped, every near one refuses, both
        # tiers exhausted -> discarded (outer for/else)
        (waitlist(200, seed=2), torch.tensor([3.0, 70.0, 95.0, 0.0])),
        # 12 candidates, B donor, KDPI 30, age 30: no eligible zero-mismatch
        # candidate (inner loop exhausted at once, continue to the next
        # tier); two refusals, the third offer is accepted
        (waitlist(12, seed=3), torch.tensor([2.0, 30.0, 30.0, 6.0])),
        # 3 candidates, all blood group O, AB donor: nobody is ABO
        # compatible -> empty match run, kidney discarded
        (torch.tensor([[0.0, 50.0, 2.0, 45.0, 1.0, 10.0, 0.0, 0.0],
                       [0.0, 85.0, 4.0, 60.0, 0.0, 20.0, 0.0, 0.0],
                       [0.0, 0.0, 1.0, 30.0, 3.0, 30.0, 0.0, 0.0]]),
         torch.tensor([3.0, 40.0, 50.0, 8.0])),
    ]
