"""Judo contest scoring from the referee tablet's event log (IJF rules, simplified).

Events: matte (no score), waza-ari, ippon, shido, each with the judoka (0 blue, 1 white),
the contest clock and video-review features. The review network can upgrade a waza-ari to
ippon or downgrade an ippon. During regular time ippon, a second waza-ari or a third shido
(hansoku-make) end the contest at once; at the end of regular time the waza-ari leader wins;
otherwise golden score runs until the first score (shidos only matter through hansoku-make).

Kind: X.  Constructs: 1, 2, 3, 4, 6, 7.
"""
import torch
import torch.nn as nn
from torch.export import Dim

MATTE, WAZA_ARI, IPPON, SHIDO = 0, 1, 2, 3
DRAW = 2


def reviewed_kind(kind, review_score):
    if kind == WAZA_ARI and review_score > 0.9:
        return torch.tensor(IPPON)
    if kind == IPPON and review_score < 0.1:
        return torch.tensor(WAZA_ARI)
    return kind


def apply_event(waza, shido, p, kind):
    """Update the score sheet; returns (waza, shido, winner) with winner -1 while undecided."""
    if kind == IPPON:
        return waza, shido, p
    if kind == WAZA_ARI:
        waza = waza.clone()
        waza[p] += 1
        if waza[p] >= 2:
            return waza, shido, p            # waza-ari awasete ippon
    elif kind == SHIDO:
        shido = shido.clone()
        shido[p] += 1
        if shido[p] >= 3:
            return waza, shido, 1 - p        # hansoku-make
    return waza, shido, torch.tensor(-1)


def waza_leader(waza):
    if waza[0] > waza[1]:
        return torch.tensor(0)
    if waza[1] > waza[0]:
        return torch.tensor(1)
    return torch.tensor(-1)


class JudoScorer(nn.Module):
    def __init__(self, regular_time=240.0):
        super().__init__()
        self.regular_time = regular_time
        self.review = nn.Linear(4, 1)

    def result(self, winner, waza, shido, t):
        outcome = torch.zeros(3)
        outcome[winner] = 1.0
        return outcome, torch.stack([waza, shido]), t

    def forward(self, etype, judoka, clock, review_feats):
        # etype, judoka: (E,) ints, clock: (E,) seconds, review_feats: (E, 4)
        review = torch.sigmoid(self.review(review_feats)).squeeze(-1)
        n = etype.shape[0]
        waza = torch.zeros(2, dtype=torch.long)
        shido = torch.zeros(2, dtype=torch.long)
        i = 0
        while i < n and clock[i] <= self.regular_time:
            kind = reviewed_kind(etype[i], review[i])
            waza, shido, winner = apply_event(waza, shido, judoka[i], kind)
            if winner >= 0:
                return self.result(winner, waza, shido, clock[i])
            i += 1
        winner = waza_leader(waza)
        if winner >= 0:
            return self.result(winner, waza, shido, torch.tensor(self.regular_time))
        # golden score
        for j in range(i, n):
            kind = reviewed_kind(etype[j], review[j])
            if kind == SHIDO:
                waza, shido, winner = apply_event(waza, shido, judoka[j], kind)
                if winner >= 0:
                    return self.result(winner, waza, shido, clock[j])
                continue
            if kind == WAZA_ARI or kind == IPPON:
                return self.result(judoka[j], waza, shido, clock[j])
        return self.result(torch.tensor(DRAW), waza, shido, clock[-1])


def model():
    torch.manual_seed(14)
    return JudoScorer().eval()


# video-review feature presets (z-scores): [impact, landing angle, control, speed]
_PLAIN = [0.0, 0.0, 0.0, 0.0]
_CLEAN = [2.5, 0.0, 4.0, 3.0]
_WEAK = [-1.0, 3.0, -4.0, -3.0]


def _log(rows):
    etype = torch.tensor([r[0] for r in rows])
    judoka = torch.tensor([r[1] for r in rows])
    clock = torch.tensor([r[2] for r in rows])
    feats = torch.tensor([r[3] if len(r) > 3 else _PLAIN for r in rows])
    return etype, judoka, clock, feats


def example_inputs():
    return _log([(SHIDO, 1, 35.0), (MATTE, 0, 60.0), (WAZA_ARI, 0, 95.5), (SHIDO, 0, 150.0),
                 (WAZA_ARI, 1, 201.0), (SHIDO, 1, 230.0), (SHIDO, 0, 262.0), (MATTE, 1, 270.0),
                 (WAZA_ARI, 1, 281.0)])


def dynamic_shapes():
    e = Dim("events", min=2, max=256)
    return ({0: e}, {0: e}, {0: e}, {0: e})


def verify_inputs():
    return [
        # level after regular time -> golden score: shido (continue), then waza-ari wins
        example_inputs(),
        # clean ippon in regular time: early return inside the while
        _log([(SHIDO, 0, 20.0), (IPPON, 1, 75.0), (MATTE, 0, 80.0)]),
        # second waza-ari: awasete ippon
        _log([(WAZA_ARI, 0, 30.0), (MATTE, 1, 50.0), (WAZA_ARI, 0, 122.0)]),
        # third shido: hansoku-make in regular time
        _log([(SHIDO, 1, 40.0), (SHIDO, 1, 100.0), (SHIDO, 1, 170.0), (WAZA_ARI, 0, 200.0)]),
        # all events in regular time, blue leads at the bell (while ends on i < n)
        _log([(WAZA_ARI, 0, 15.0), (SHIDO, 1, 180.0)]),
        # waza-ari upgraded to ippon on video review
        _log([(WAZA_ARI, 0, 44.0, _CLEAN), (MATTE, 1, 50.0)]),
        # ippon downgraded to waza-ari; white leads at the bell (while ends on the clock)
        _log([(IPPON, 1, 130.0, _WEAK), (MATTE, 0, 250.0)]),
        # golden score hansoku-make (third shido after the bell)
        _log([(SHIDO, 0, 60.0), (SHIDO, 0, 200.0), (MATTE, 1, 245.0), (SHIDO, 0, 300.0)]),
        # first event already after the bell: while runs 0 times, golden score waza-ari
        _log([(MATTE, 0, 250.0), (WAZA_ARI, 1, 262.0)]),
        # golden score decided by ippon (second operand of the `or`)
        _log([(MATTE, 0, 100.0), (IPPON, 0, 255.0)]),
        # nothing scores in golden score: draw (hantei)
        _log([(SHIDO, 0, 100.0), (MATTE, 0, 250.0), (SHIDO, 1, 260.0), (MATTE, 1, 330.0)]),
    ]
