"""Retail demand forecaster with holiday rules, run per store on the shop server.

An MLP predicts the next day's units from the last 7 days; it rolls forward over a horizon whose
length is the (dynamic) number of holiday flags passed in, and a helper applies the holiday uplift
and the post-holiday dip. Typical: for over a dynamic size, list.append + stack, early returns in a
helper, tensor if/else.
"""
import torch
from torch import nn

WINDOW = 7


def holiday_rule(pred, flag_t, flag_prev, uplift, dip):
    if flag_t > 0.5:
        return pred * uplift
    if flag_prev > 0.5:
        # the day after a holiday is slow
        return pred * dip
    return pred


class DemandForecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(WINDOW + 1, 32), nn.ReLU(), nn.Linear(32, 1))
        self.uplift = nn.Parameter(torch.tensor(1.6))
        self.dip = nn.Parameter(torch.tensor(0.8))

    def forward(self, history, holidays, promo):
        # history: (1, 28) units sold; holidays, promo: (1, H) 0/1 flags for the horizon
        scale = history.mean().clamp_min(1.0)
        window = history[:, -WINDOW:] / scale
        preds = []
        flag_prev = torch.zeros(())
        for t in range(holidays.shape[1]):
            x = torch.cat([window, promo[:, t:t + 1]], dim=1)
            pred = torch.relu(self.mlp(x)[0, 0] + window[0, -1])
            pred = holiday_rule(pred, holidays[0, t], flag_prev, self.uplift, self.dip)
            preds.append(pred * scale)
            window = torch.cat([window[:, 1:], pred.reshape(1, 1)], dim=1)
            flag_prev = holidays[0, t]
        out = torch.stack(preds)
        if out.max() > 4.0 * history.max():
            # runaway forecast: fall back to the seasonal naive forecast
            out = history[0, -1].expand(out.shape[0]).clone()
        return out


def model():
    torch.manual_seed(1)
    return DemandForecaster().eval()


def _hist(level=50.0, slope=0.5):
    return (level + slope * torch.arange(28, dtype=torch.float32)).reshape(1, 28)


def example_inputs():
    return (_hist(), torch.tensor([[0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0]]), torch.zeros(1, 7))


def dynamic_shapes():
    h = torch.export.Dim("horizon", min=2, max=60)
    return (None, {1: h}, {1: h})


def verify_inputs():
    return [
        (_hist(80.0, -1.0), torch.tensor([[1.0, 1.0, 0.0]]), torch.tensor([[1.0, 0.0, 1.0]])),
        (_hist(20.0, 0.0), torch.zeros(1, 14), torch.ones(1, 14)),
        (_hist(5.0, 0.0), torch.ones(1, 30), torch.ones(1, 30)),  # holiday season -> runaway guard
    ]
