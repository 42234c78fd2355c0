"""Vineyard frost alarm: a small recurrent model rolls the night-time canopy temperature forward
hour by hour; windy hours reset the cold streak (mixing prevents radiative frost); the alarm fires
and the rollout stops once the temperature stays below the threshold for 3 consecutive hours."""
import torch
from torch import nn

HORIZON = 12


class FrostAlarm(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = nn.GRUCell(3, 16)
        self.out = nn.Linear(16, 1)
        self.frost_c = 0.5

    def forward(self, temps, wind):
        # temps: (H,) last hours deg C (H dynamic); wind: (HORIZON,) forecast m/s
        h = torch.zeros(1, 16)
        for t in range(temps.shape[0]):
            h = self.cell(torch.stack([temps[t], wind[0], torch.zeros(())]).unsqueeze(0), h)
        cur = temps[-1]
        forecast = []
        streak = 0
        alarm_hour = torch.tensor(-1)
        hour = 0
        while hour < HORIZON:
            w = wind[hour]
            cur = cur - 0.8 + 0.1 * torch.tanh(self.out(h)).squeeze() + 0.3 * w.clamp(max=3.0)
            h = self.cell(torch.stack([cur, w, torch.ones(())]).unsqueeze(0), h)
            forecast.append(cur)
            hour += 1
            if w > 2.5 or not (cur < self.frost_c):
                streak = 0
                continue
            streak += 1
            if streak >= 3:
                alarm_hour = torch.tensor(hour - 3)
                break
        return torch.stack(forecast), alarm_hour


def model():
    torch.manual_seed(0)
    return FrostAlarm().eval()


def example_inputs():
    return (torch.tensor([6.0, 5.1, 4.3, 3.6, 3.0]), torch.tensor([0.5] * HORIZON))


def dynamic_shapes():
    return ({0: torch.export.Dim("hours", min=2, max=48)}, None)


def verify_inputs():
    windy = torch.tensor([3.0, 3.0, 0.5, 3.0] * 3)
    return [(torch.tensor([12.0, 11.0, 10.5]), torch.tensor([0.5] * HORIZON)),   # warm night
            (torch.tensor([2.0, 1.5, 1.0, 0.8, 0.7, 0.6, 0.5, 0.4]), windy),       # cold but windy
            (torch.tensor([1.0, 0.2]), torch.tensor([0.2] * HORIZON))]             # frost right away
