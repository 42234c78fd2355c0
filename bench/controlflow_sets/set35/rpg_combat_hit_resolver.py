"""Action-RPG combat: resolve a volley of incoming hits against one defender
(crits, elemental resistances, armor with armor-piercing, an absorbing shield,
misses), stop when the defender dies, then score the encounter's threat level
with a tiny learned head used by the enemy AI.

Inputs: hits [H, 4] (base damage, crit roll in [0,1), element 0=physical 1=fire 2=ice,
armor-piercing flag), defender [5] (hp, shield, armor, fire_res, ice_res).
Outputs: hp after each resolved hit [K] (K <= H), threat score [1].
"""
import torch
import torch.nn as nn


class HitResolver(nn.Module):
    def __init__(self, crit_chance=0.2, crit_multiplier=2.0):
        super().__init__()
        self.crit_chance = crit_chance
        self.crit_multiplier = crit_multiplier
        self.threat = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))

    def forward(self, hits, defender):
        hp0 = defender[0]
        hp, shield, armor = defender[0], defender[1], defender[2]
        hp_log = []
        total = torch.zeros_like(hp)
        for i in range(hits.shape[0]):
            dmg, crit_roll, element, piercing = hits[i].unbind(0)
            if dmg <= 0:
                # miss / dodged
                hp_log.append(hp)
                continue
            if crit_roll > 1.0 - self.crit_chance:
                dmg = dmg * self.crit_multiplier
            if element == 1:
                dmg = dmg * (1.0 - defender[3])
            elif element == 2:
                dmg = dmg * (1.0 - defender[4])
            mitigation = armor / (armor + 100.0)
            if piercing > 0.5 or armor <= 0:
                mitigation = torch.zeros_like(armor)
            dmg = dmg * (1.0 - mitigation)
            if shield > 0:
                absorbed = torch.minimum(shield, dmg)
                shield = shield - absorbed
                dmg = dmg - absorbed
            hp = hp - dmg
            total = total + dmg
            hp_log.append(hp)
            if hp <= 0:
                break
        feats = torch.stack([hp / hp0, shield / 100.0, torch.tensor(len(hp_log) / hits.shape[0]), total / hp0])
        return torch.stack(hp_log), torch.sigmoid(self.threat(feats))


def model():
    torch.manual_seed(2)
    return HitResolver().eval()


def example_inputs():
    # survives all 6 hits: miss, crit fire, ice, piercing physical, plain physical, shield used up
    hits = torch.tensor([
        [30.0, 0.10, 0.0, 0.0],
        [0.0, 0.50, 0.0, 0.0],
        [25.0, 0.95, 1.0, 0.0],
        [40.0, 0.30, 2.0, 0.0],
        [35.0, 0.40, 0.0, 1.0],
        [20.0, 0.60, 0.0, 0.0],
    ])
    defender = torch.tensor([300.0, 50.0, 50.0, 0.25, 0.5])
    return hits, defender


def dynamic_shapes():
    return ({0: torch.export.Dim("n_hits", min=2, max=64)}, None)


def verify_inputs():
    g = torch.Generator().manual_seed(7)
    many = torch.stack([
        torch.rand(40, generator=g) * 30.0 + 5.0,
        torch.rand(40, generator=g),
        torch.randint(0, 3, (40,), generator=g).float(),
        (torch.rand(40, generator=g) > 0.7).float(),
    ], dim=1)
    return [
        example_inputs(),  # every hit resolved, defender survives; shield >0 then == 0; all elements; crit/no crit
        (torch.tensor([[500.0, 0.99, 0.0, 0.0], [10.0, 0.1, 0.0, 0.0]]),
         torch.tensor([100.0, 0.0, 0.0, 0.0, 0.0])),  # armor 0 (or second operand), no shield, killed by 1st hit -> break
        (many, torch.tensor([400.0, 30.0, 20.0, 0.1, 0.3])),  # 40 random hits, defender dies partway -> break
        (torch.tensor([[0.0, 0.5, 0.0, 0.0], [0.0, 0.9, 1.0, 0.0], [5.0, 0.1, 1.0, 0.0]]),
         torch.tensor([50.0, 10.0, 10.0, 1.0, 0.0])),  # two misses (continue), full fire immunity
    ]
