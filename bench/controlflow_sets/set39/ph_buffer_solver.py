"""Equilibrium pH of a laboratory buffer recipe: a mixture of weak (up to triprotic) acids
plus added NaOH / HCl. A small network predicts activity (ionic-strength) corrections of
the pKa values; the charge balance is then solved for pH by damped Newton iterations,
with short-cuts for recipes without weak acids and for a strong-base excess that
overwhelms every buffer. Also returns the speciation and the buffer capacity.

Kind X. Constructs: 1 (if/elif/else on tensor quantities, ternary on a config value),
2 (returns inside branches of forward and of the helpers), 3 (and in the while),
4 (while on the Newton step size with loop-carried pH), 7 (speciation -> charge balance ->
Newton helpers calling each other), 9 (static loop over protonation steps, config
temperature / tolerance).
"""
import math

import torch
import torch.nn as nn

LN10 = math.log(10.0)


def speciation(ph, pka):
    """Fractions (S, 4) of the 0..3-times deprotonated forms of each acid at this pH."""
    logits = [torch.zeros(pka.shape[0])]
    for k in range(3):
        logits.append(logits[-1] + (ph - pka[:, k]) * LN10)
    return torch.softmax(torch.stack(logits, 1), 1)


def charge_balance(ph, conc, pka, na, cl, pkw):
    """Net positive charge f(pH) and df/dpH."""
    alpha = speciation(ph, pka)
    k = torch.arange(4, dtype=torch.float32)
    mean_charge = (alpha * k).sum(1)
    var_charge = (alpha * k * k).sum(1) - mean_charge ** 2
    h = 10.0 ** (-ph)
    oh = 10.0 ** (ph - pkw)
    f = h + na - oh - cl - (conc * mean_charge).sum()
    df = -LN10 * (h + oh + (conc * var_charge).sum())
    return f, df


def strong_only_ph(net_base, pkw):
    if net_base > 1e-7:
        return pkw + torch.log10(net_base)
    elif net_base < -1e-7:
        return -torch.log10(-net_base)
    return torch.tensor(pkw / 2.0)


class BufferPH(nn.Module):
    def __init__(self, temperature_c=25.0, tol=1e-4, max_iter=60, max_step=1.0):
        super().__init__()
        self.temperature_c = temperature_c
        self.tol = tol
        self.max_iter = max_iter
        self.max_step = max_step
        self.activity = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))

    def initial_guess(self, conc, pka, net_base):
        if net_base > 0:
            return torch.tensor(10.0)
        strongest = torch.argmin(pka[:, 0])
        return (0.5 * (pka[strongest, 0] - torch.log10(conc[strongest] + 1e-9))).clamp(1.0, 13.0)

    def newton(self, ph, conc, pka, na, cl, pkw):
        step = torch.tensor(float("inf"))
        it = 0
        while step.abs() > self.tol and it < self.max_iter:
            f, df = charge_balance(ph, conc, pka, na, cl, pkw)
            step = f / df
            if step.abs() > self.max_step:
                step = step.sign() * self.max_step          # damp the far-from-root steps
            ph = (ph - step).clamp(0.0, 14.0)
            it += 1
        return ph

    def forward(self, conc, pka, strong):
        # conc: (S,) mol/L of each weak acid (fully protonated form); pka: (S, 3) pKa values,
        # 99 = no such proton; strong: (2,) mol/L of added NaOH and HCl
        pkw = 14.0 if self.temperature_c == 25.0 else 14.0 - 0.0145 * (self.temperature_c - 25.0)
        na, cl = strong[0], strong[1]
        net_base = na - cl
        if conc.sum() <= 1e-9:
            ph = strong_only_ph(net_base, pkw)
            return ph, torch.zeros(conc.shape[0], 4), LN10 * (10.0 ** (-ph) + 10.0 ** (ph - pkw))
        capacity = (conc * (pka < 50).float().sum(1)).sum()
        if net_base > 1.05 * capacity:
            # more base than all buffers can take: every acid fully deprotonated
            ph = strong_only_ph(net_base - capacity, pkw)
            return ph, speciation(ph, pka), LN10 * (10.0 ** (ph - pkw))
        ionic = 0.5 * (na + cl + conc.sum())
        feats = torch.stack([ionic.sqrt().expand_as(conc), pka[:, 0] / 14.0], 1)
        shift = 0.2 * torch.tanh(self.activity(feats))
        pka = torch.where(pka < 50, pka - shift, pka)
        ph = self.initial_guess(conc, pka, net_base)
        ph = self.newton(ph, conc, pka, na, cl, pkw)
        _, df = charge_balance(ph, conc, pka, na, cl, pkw)
        return ph, speciation(ph, pka), -df


def model():
    torch.manual_seed(3919)
    return BufferPH().eval()


NA = 99.0


def example_inputs():
    # phosphate buffer: 0.1 M H3PO4 + 0.15 M NaOH (pH near pKa2), plus 0.02 M acetic acid;
    # net base > 0 -> guess pH 10, damped Newton steps, then converges
    conc = torch.tensor([0.1, 0.02])
    pka = torch.tensor([[2.15, 7.20, 12.35], [4.76, NA, NA]])
    return conc, pka, torch.tensor([0.15, 0.0])


def dynamic_shapes():
    acids = torch.export.Dim("acids", min=2, max=16)
    return ({0: acids}, {0: acids}, None)


def verify_inputs():
    ex = example_inputs()   # the example: path described in example_inputs()
    # citrate + MOPS-like + MES-like + ammonium, strongly acidified with HCl: guess from the
    # strongest acid, first Newton step damped, then converges (4 acids)
    citrate = (torch.tensor([0.05, 0.02, 0.03, 0.01]),
               torch.tensor([[3.13, 4.76, 6.40], [7.55, NA, NA], [6.15, NA, NA], [9.25, NA, NA]]),
               torch.tensor([0.0, 0.04]))
    # no weak acids at all, excess HCl: strong-acid short-cut
    hcl = (torch.zeros(2), torch.tensor([[4.76, NA, NA], [9.25, NA, NA]]), torch.tensor([0.0, 0.01]))
    # no weak acids, NaOH: strong-base short-cut
    naoh = (torch.zeros(3), torch.full((3, 3), NA), torch.tensor([0.002, 0.0]))
    # no weak acids, equal NaOH and HCl: neutral
    neutral = (torch.zeros(2), torch.full((2, 3), NA), torch.tensor([0.01, 0.01]))
    # acetate + ammonium overwhelmed by NaOH (more base than buffer capacity): short-cut
    flooded = (torch.tensor([0.01, 0.01]), torch.tensor([[4.76, NA, NA], [9.25, NA, NA]]),
               torch.tensor([0.5, 0.0]))
    # six acids with a little NaOH (net base > 0: guess pH 10), long walk of damped steps
    many = (torch.tensor([0.05, 0.01, 0.02, 0.005, 0.01, 0.02]),
            torch.tensor([[8.07, NA, NA], [6.35, 10.33, NA], [2.0, 2.7, 6.2], [4.76, NA, NA],
                          [3.86, NA, NA], [9.8, NA, NA]]),
            torch.tensor([0.03, 0.0]))
    return [ex, citrate, hcl, naoh, neutral, flooded, many]
