"""Resistance spot welding: weld-current stepper with tip dressing.

Electrode tips mushroom as they weld (faster on zinc-coated sheet and after
expulsions), which lowers current density.  The weld controller steps the
current up every `step_every` welds, reacts to expulsion (back off) and to a
weak dynamic-resistance drop (cold weld: push current), and triggers a tip
dress when the tip face grows too large or the current hits its ceiling.
After `max_dresses` dressings the caps are worn out and the gun is held for a
cap change.  A learned regressor estimates the nugget diameter per weld.
"""
import torch
import torch.nn as nn


class ElectrodeStepper(nn.Module):
    def __init__(self):
        super().__init__()
        self.base_ka = 9.0
        self.step_ka = 0.15
        self.step_every = 20
        self.max_ka = 11.5
        self.new_tip_mm = 6.0
        self.dress_tip_mm = 7.2
        self.max_dresses = 3
        self.expulsion_level = 0.5
        self.cold_weld_drop_pct = 4.0
        self.nugget = nn.Linear(3, 1)

    def forward(self, welds):
        n = welds.shape[0]
        current = torch.tensor(self.base_ka)
        tip = torch.tensor(self.new_tip_mm)
        since_dress = 0
        dresses = 0
        currents, flags, nuggets = [], [], []
        for i in range(n):
            rdrop, expulsion, coating = welds[i, 0], welds[i, 1], welds[i, 2]
            wear = 0.004 * coating * (1.0 + (expulsion > self.expulsion_level).float())
            tip = tip + wear
            since_dress += 1
            if since_dress % self.step_every == 0:
                current = torch.clamp(current + self.step_ka, max=self.max_ka)

            if expulsion > self.expulsion_level:
                current = current - 0.3
                flag = 1
            elif rdrop < self.cold_weld_drop_pct:
                current = current + 0.2
                flag = 2
            else:
                flag = 0

            feats = torch.stack([current / 10.0, tip / 6.0, rdrop / 10.0])
            nuggets.append(4.0 + 2.0 * torch.sigmoid(self.nugget(feats)).squeeze(0))
            currents.append(current)
            flags.append(flag)

            if tip > self.dress_tip_mm or current >= self.max_ka:
                tip = torch.tensor(self.new_tip_mm)
                current = torch.tensor(self.base_ka)
                since_dress = 0
                dresses += 1
                if dresses >= self.max_dresses:
                    break  # caps used up: hold the gun for a cap change

        held = n - len(currents)
        cur = torch.stack(currents)
        flag_t = torch.tensor(flags)
        nug = torch.stack(nuggets)
        if held > 0:
            cur = torch.cat([cur, torch.zeros(held)])
            flag_t = torch.cat([flag_t, torch.full((held,), 3)])
            nug = torch.cat([nug, torch.zeros(held)])
        return cur, flag_t, nug, torch.tensor(dresses)


def model():
    torch.manual_seed(5905)
    return ElectrodeStepper().eval()


def make_welds(n, coating, seed, expulsion_every=0, cold_every=0):
    g = torch.Generator().manual_seed(seed)
    rdrop = 6.0 + 4.0 * torch.rand(n, generator=g)
    expulsion = 0.3 * torch.rand(n, generator=g)
    if expulsion_every:
        expulsion[expulsion_every - 1::expulsion_every] = 0.9
    if cold_every:
        rdrop[cold_every - 1::cold_every] = 2.5
    coat = torch.full((n,), coating)
    return (torch.stack([rdrop, expulsion, coat], 1),)


def example_inputs():
    # bare steel, 48 welds, occasional expulsion and cold weld
    return make_welds(48, 1.0, 1, expulsion_every=11, cold_every=7)


def dynamic_shapes():
    return ({0: torch.export.Dim("n_welds", min=2, max=160)},)


def verify_inputs():
    # example: current steps at welds 20 / 40, expulsions and cold welds, no dress
    ex = example_inputs()
    # 2 welds on clean steel: nothing happens
    two = make_welds(2, 1.0, 2)
    # 160 welds on heavy galvanised sheet: tip grows fast, dressed three times -> cap change
    galv = make_welds(160, 8.0, 3, expulsion_every=9)
    # repeated cold welds drive the current to its ceiling -> dress on current
    cold = make_welds(30, 1.0, 4, cold_every=1)
    return [ex, two, galv, cold]
