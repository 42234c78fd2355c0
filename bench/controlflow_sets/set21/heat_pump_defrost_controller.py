"""Air-source heat pump defrost state machine (HEAT -> DEFROST -> DRIP) over a temperature log."""
import torch
from torch import nn
from torch.export import Dim

HEAT, DEFROST, DRIP = 0, 1, 2


class DefrostController(nn.Module):
    def __init__(self, frost_limit=1.0, max_defrost=6, drip_steps=2):
        super().__init__()
        self.frost_limit = frost_limit
        self.max_defrost = max_defrost
        self.drip_steps = drip_steps
        self.cop_net = nn.Sequential(nn.Linear(2, 6), nn.Tanh(), nn.Linear(6, 1))

    def forward(self, outdoor, coil):
        T = outdoor.shape[0]
        state, timer = HEAT, 0
        frost = torch.zeros(1)
        n_defrost = torch.zeros(1)
        power = []
        for t in range(T):
            if state == HEAT:
                rate = torch.clamp(-coil[t:t + 1], min=0.0) * 0.05
                frost = frost + rate
                if frost > self.frost_limit and outdoor[t] < 5.0:
                    state, timer = DEFROST, 0
                    n_defrost = n_defrost + 1
                feat = torch.stack([outdoor[t], coil[t]]).view(1, 2) / 10.0
                p = 2.0 + torch.sigmoid(self.cop_net(feat)).view(1)
            elif state == DEFROST:
                frost = torch.clamp(frost - 0.35, min=0.0)
                timer += 1
                if frost < 0.1 or timer >= self.max_defrost:
                    state, timer = DRIP, 0
                p = torch.full((1,), 3.5)
            else:
                timer += 1
                if timer >= self.drip_steps:
                    state = HEAT
                p = torch.zeros(1)
            power.append(p)
        return torch.cat(power), frost, n_defrost


def model():
    torch.manual_seed(0)
    return DefrostController().eval()


def example_inputs():
    T = 30
    outdoor = torch.full((T,), 1.3)
    coil = torch.full((T,), -4.3)
    return (outdoor, coil)


def verify_inputs():
    return [
        (torch.full((10,), 12.2), torch.full((10,), 3.1)),             # mild weather, never frosts
        (torch.full((40,), -8.3), torch.full((40,), -11.7)),           # heavy frost: defrost capped by timer
        (torch.cat([torch.full((20,), 7.4), torch.full((20,), 2.2)]),   # frost builds while too warm to defrost
         torch.full((40,), -6.3)),
    ]


def dynamic_shapes():
    t = Dim("steps", min=4, max=512)
    return ({0: t}, {0: t})
