"""Weekly opioid taper plan for a patient on long-term therapy.

The starting dose is the median daily morphine milligram equivalent (MME)
of the last week of dispensing.  A small model fitted on taper outcomes
proposes the weekly reduction rate and a withdrawal risk from the patient's
risk factors.  The plan goes through three phases: percentage cuts of the
current dose, half-size cuts once below half the starting dose, and fixed
small steps to discontinuation once below ten percent.  Every fourth week
is a hold week when withdrawal risk is high.
"""
import math

import torch
import torch.nn as nn

FAST, SLOW, FINAL = 0, 1, 2


class TaperPlanner(nn.Module):
    def __init__(self, floor_mme=5.0, max_weeks=52, pause_every=4):
        super().__init__()
        self.floor_mme = floor_mme
        self.max_weeks = max_weeks
        self.pause_every = pause_every
        # risk factors -> [taper rate logit, withdrawal risk logit]
        self.net = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 2))

    def starting_dose(self, dose_history):
        if dose_history.shape[0] >= 7:
            return dose_history[-7:].median()
        return dose_history[-1]

    def forward(self, dose_history, risk_factors):
        # dose_history: (n_days,) daily MME
        # risk_factors: (6,) [age decades, years on opioids, PHQ-9 / 3, ED visits last year,
        #                     benzodiazepine co-prescription days / 10, pain score 0-10]
        start = self.starting_dose(dose_history)
        if start <= self.floor_mme:
            return torch.zeros(1), torch.ones((), dtype=torch.long)

        logits = self.net(risk_factors)
        rate = 0.10 + 0.20 * torch.sigmoid(logits[0])
        withdrawal_risk = torch.sigmoid(logits[1])
        escalated = dose_history[-1] > 1.2 * dose_history[0]
        if withdrawal_risk > 0.7 or escalated:
            rate = rate * 0.5

        fast_weeks = torch.ceil(torch.log(self.floor_mme / start) / torch.log(1.0 - rate))
        n_weeks = min(2 * int(fast_weeks.item()) + 4, self.max_weeks)

        schedule = []
        dose = start
        phase = FAST
        final_step = 0.025 * start
        for week in range(n_weeks):
            if (week + 1) % self.pause_every == 0 and withdrawal_risk > 0.5:
                schedule.append(dose)          # hold week
                continue
            if phase == FAST:
                dose = dose * (1.0 - rate)
                if dose < 0.5 * start:
                    phase = SLOW
            elif phase == SLOW:
                dose = dose * (1.0 - 0.5 * rate)
                if dose < 0.1 * start:
                    phase = FINAL
            else:
                dose = dose - final_step
            if dose <= self.floor_mme:
                schedule.append(torch.zeros(()))   # discontinue
                break
            schedule.append(dose)
        else:
            # plan horizon reached before discontinuation: stay on the last dose for review
            schedule.append(dose)
        return torch.stack(schedule), torch.tensor(len(schedule))


def model():
    torch.manual_seed(5714)
    return TaperPlanner().eval()


N_DAYS = torch.export.Dim("n_days", min=2, max=180)


def _history(n, dose, seed, trend=0.0):
    g = torch.Generator().manual_seed(seed)
    base = dose * (1.0 + trend * torch.linspace(-1.0, 0.0, n))
    return (base + 2.0 * torch.randn(n, generator=g)).clamp(min=0.0)


def example_inputs():
    # 90 days on ~120 MME, moderate risk factors
    return (_history(90, 120.0, 1), torch.tensor([5.0, 4.0, 2.0, 1.0, 3.0, 5.0]))


def dynamic_shapes():
    return ({0: N_DAYS}, None)


def verify_inputs():
    low_risk = torch.tensor([6.0, 7.0, 2.0, 5.0, 1.0, 0.0])
    high_risk = torch.tensor([4.0, 8.0, 4.0, 0.0, 9.0, 9.0])
    return [
        # median start; withdrawal risk ~0.66: hold weeks (continue) but full rate;
        # fast -> slow -> final phases, ends by discontinuation (break)
        example_inputs(),
        # 2 days only (start = last day), low dose 4 MME -> already at floor, early return
        (torch.tensor([6.0, 4.0]), low_risk),
        # 180 days, very high dose, high withdrawal risk: halved rate, hold weeks (continue),
        # 52-week horizon reached -> for/else keeps the last dose
        (_history(180, 400.0, 3), high_risk),
        # dose escalated over 30 days -> halved rate, low risk: no hold weeks
        (_history(30, 60.0, 4, trend=0.5), low_risk),
        # 5 days (start = last day), low risk, small dose -> short taper, floor reached in the slow phase
        (_history(5, 20.0, 5), low_risk),
    ]
