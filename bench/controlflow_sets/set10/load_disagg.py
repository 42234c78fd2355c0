"""Smart-meter load disaggregation: one small conv head per appliance predicts its
power from the aggregate, then a projected-gradient refinement makes the appliance
estimates add up to the measured aggregate (non-negative)."""
import torch
from torch import nn
import torch.nn.functional as F

APPLIANCES = ("fridge", "kettle", "washer", "dishwasher")


class ApplianceHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv1d(1, 8, 5, padding=2)
        self.conv2 = nn.Conv1d(8, 1, 5, padding=2)

    def forward(self, agg):
        return F.softplus(self.conv2(F.relu(self.conv1(agg))))


class Disaggregator(nn.Module):
    def __init__(self):
        super().__init__()
        self.heads = nn.ModuleList([ApplianceHead() for _ in APPLIANCES])
        self.standby_w = 5.0
        self.tol = 0.5          # watts, mean absolute residual
        self.max_iter = 50
        self.lr = 0.5

    def forward(self, agg):
        # agg: (B, T) watts
        B, T = agg.shape
        if agg.max() < self.standby_w:
            # house in standby: everything off
            return torch.zeros(B, len(self.heads), T), torch.zeros(())
        x = (agg / 1000.0).unsqueeze(1)
        parts = []
        for head in self.heads:
            parts.append(head(x) * 1000.0)
        est = torch.cat(parts, dim=1)                    # (B, K, T)
        k = est.shape[1]
        resid = (agg - est.sum(dim=1)).abs().mean()
        it = 0
        while resid > self.tol and it < self.max_iter:
            r = agg - est.sum(dim=1)                     # (B, T)
            est = torch.relu(est + self.lr * r.unsqueeze(1) / k)
            resid = (agg - est.sum(dim=1)).abs().mean()
            it += 1
        return est, resid


def model():
    torch.manual_seed(0)
    return Disaggregator().eval()


def example_inputs():
    torch.manual_seed(1)
    agg = 150.0 + 50.0 * torch.rand(2, 64)
    agg[:, 20:30] += 2000.0
    return (agg,)


def dynamic_shapes():
    return ({1: torch.export.Dim("T", min=8, max=1440)},)


def verify_inputs():
    torch.manual_seed(9)
    return [
        (torch.rand(2, 32) * 3.0,),                 # standby
        (1200.0 + 300.0 * torch.rand(2, 100),),
    ]
