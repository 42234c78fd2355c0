"""Underground coal mine ventilation monitor: methane / CO / airflow trip logic plus a learned trend score.

Kind T. Constructs: 1, 2, 3, 8.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


class GasMonitor(nn.Module):
    def __init__(self):
        super().__init__()
        self.trend = nn.Conv1d(3, 8, kernel_size=5, padding=2)
        self.score = nn.Linear(8, 1)

    def forward(self, series):
        # series: (3, T) = CH4 %vol, CO ppm / 100, airflow m/s sampled every 10 s
        if series.shape[1] > 64:
            # long buffers are decimated to 20 s before the trend net
            series = F.avg_pool1d(series.unsqueeze(0), 2).squeeze(0)
        ch4 = series[0, -6:].mean()
        co = series[1, -6:].mean()
        air = series[2, -6:].mean()
        if ch4 > 2.0:
            # statutory power cut, nothing else matters
            return torch.tensor([1.0, 1.0]), torch.ones(())
        if (ch4 > 1.0 and air < 0.5) or co > 0.5:
            action = torch.tensor([0.0, 1.0])  # evacuate section / boost fans
        elif ch4 > 1.0 or not air > 0.3:
            action = torch.tensor([0.0, 0.5])  # warning
        else:
            action = torch.tensor([0.0, 0.0])
        h = torch.relu(self.trend(series.unsqueeze(0))).mean(-1)[0]
        return action, torch.sigmoid(self.score(h))[0]


def model():
    torch.manual_seed(110)
    return GasMonitor().eval()


def _series(T, ch4, co, air):
    k = torch.arange(T, dtype=torch.float32)
    return torch.stack([torch.full((T,), ch4) + 0.01 * torch.sin(k),
                        torch.full((T,), co), torch.full((T,), air) + 0.02 * torch.cos(k)])


def example_inputs():
    return (_series(48, 0.4, 0.1, 1.5),)


def dynamic_shapes():
    return ({1: Dim("samples", min=8, max=512)},)


def verify_inputs():
    return [
        example_inputs(),                 # all clear, no decimation
        (_series(100, 2.5, 0.1, 1.0),),   # decimated, methane trip -> early return
        (_series(8, 1.4, 0.1, 0.4),),     # methane high and airflow low -> evacuate
        (_series(512, 0.3, 0.8, 1.5),),   # CO high -> evacuate via or
        (_series(30, 1.4, 0.1, 1.2),),    # methane warning
        (_series(66, 0.4, 0.1, 0.2),),    # low airflow warning (not air > 0.3), decimated
    ]
