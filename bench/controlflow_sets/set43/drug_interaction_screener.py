"""Pharmacy drug-drug interaction screener.

A patient's active medication list (drug-class ids and daily dose as a
fraction of the maximum dose) is screened pairwise against a class-level
severity table. Minor interactions are skipped, moderate ones only count when
either dose is high, and a contraindicated pair stops the screen immediately.
A small embedding model also scores the overall regimen burden.
Constructs: 1, 2, 3, 5, 6
"""
import torch
import torch.nn as nn


class InteractionScreener(nn.Module):
    def __init__(self, n_classes=10):
        super().__init__()
        g = torch.Generator().manual_seed(123)
        raw = torch.randint(0, 4, (n_classes, n_classes), generator=g).float() / 3.0
        sev = torch.triu(raw, diagonal=1)
        self.register_buffer("severity", sev + sev.T)   # 0, 1/3, 2/3, 1
        self.embed = nn.Embedding(n_classes, 8)
        self.burden = nn.Linear(8, 1)

    def forward(self, drug_class, dose_frac):
        n = drug_class.shape[0]
        alerts = []
        contraindicated = torch.tensor(0.0)
        for i in range(n):
            for j in range(i + 1, n):
                sev = self.severity[drug_class[i], drug_class[j]]
                if sev < 0.5:
                    continue                      # none / minor
                if sev < 0.9 and not (dose_frac[i] > 0.7 or dose_frac[j] > 0.7):
                    continue                      # moderate, both doses low
                alerts.append(sev * torch.maximum(dose_frac[i], dose_frac[j]))
                if sev > 0.9:
                    contraindicated = torch.tensor(1.0)
                    break
            if contraindicated > 0:
                break

        regimen = self.embed(drug_class) * dose_frac[:, None]
        burden = torch.sigmoid(self.burden(regimen.sum(dim=0)))[0]
        if len(alerts) == 0:
            return torch.zeros(1), contraindicated, burden
        return torch.stack(alerts), contraindicated, burden


def model():
    torch.manual_seed(5)
    return InteractionScreener().eval()


def example_inputs():
    return (torch.tensor([0, 3, 5, 7]), torch.tensor([0.9, 0.2, 0.4, 0.6]))


def dynamic_shapes():
    n = torch.export.Dim("n_drugs", min=2, max=12)
    return ({0: n}, {0: n})


def verify_inputs():
    return [
        # two moderate pairs with a high dose -> alerts; minor pairs and a
        # moderate low-dose pair skipped (both continues); no break
        example_inputs(),
        # single moderate pair, both doses low -> no alerts (empty-list return)
        (torch.tensor([1, 2]), torch.tensor([0.3, 0.3])),
        # contraindicated pair (0, 5) after two alerts -> inner and outer break
        (torch.tensor([0, 1, 2, 4, 6, 8]), torch.tensor([0.9, 0.8, 0.1, 0.2, 0.5, 0.95])),
        # moderate and minor pairs only, low doses -> no alerts, loops run fully
        (torch.tensor([9, 8, 6]), torch.tensor([0.2, 0.3, 0.4])),
    ]
