"""ICU nurse-driven vasopressor titration protocol for septic shock: start
norepinephrine when MAP drops below target, step it up (step size from a small
recurrent responsiveness model), add fixed-dose vasopressin at the norepinephrine
threshold, wean after sustained MAP above target, and hand over to the physician
(stop automatic titration) on refractory shock."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim

OFF, NOREPI, NOREPI_VASO, WEANING = range(4)


class PressorProtocol(nn.Module):
    def __init__(self):
        super().__init__()
        self.response = nn.GRUCell(3, 8)
        self.gain_head = nn.Linear(8, 1)
        self.register_buffer("vital_scale", torch.tensor([100.0, 150.0, 10.0]))
        self.map_low, self.map_high = 65.0, 75.0
        self.norepi_start, self.norepi_step, self.norepi_max = 0.05, 0.02, 0.5  # mcg/kg/min
        self.vaso_threshold = 0.25
        self.vaso_dose = 0.03  # units/min
        self.wean_after = 3

    def forward(self, vitals):
        # vitals: [T, 3] = MAP mmHg, heart rate, lactate mmol/L, every 5 minutes
        state = OFF
        norepi, vaso = torch.zeros(()), torch.zeros(())
        above = 0
        h = torch.zeros(1, 8)
        doses, states = [], []
        handed_over = False
        for t in range(vitals.shape[0]):
            m, lactate = vitals[t, 0], vitals[t, 2]
            h = self.response(vitals[t:t + 1] / self.vital_scale, h)
            poor_response = F.softplus(self.gain_head(h)).squeeze()
            if m < 50 and lactate > 4:
                handed_over = True  # refractory shock: physician takes over
                break
            if state == OFF:
                if m < self.map_low:
                    state, norepi = NOREPI, torch.tensor(self.norepi_start)
            elif state == NOREPI or state == NOREPI_VASO:
                if m < self.map_low:
                    above = 0
                    norepi = torch.clamp(norepi + self.norepi_step * (1.0 + poor_response), max=self.norepi_max)
                    if norepi >= self.vaso_threshold and state == NOREPI:
                        state, vaso = NOREPI_VASO, torch.tensor(self.vaso_dose)
                elif m > self.map_high:
                    above += 1
                    if above >= self.wean_after:
                        state = WEANING
                else:
                    above = 0
            else:
                if m < self.map_low:
                    # pressure fell again while weaning: go back to titrating
                    state = NOREPI_VASO if vaso > 0 else NOREPI
                    above = 0
                else:
                    norepi = torch.clamp(norepi - self.norepi_step, min=0.0)
                    if norepi == 0:
                        state, vaso = OFF, torch.zeros(())
            doses.append(torch.stack([norepi, vaso]))
            states.append(state)
        last = torch.stack([norepi, vaso])
        while len(doses) < vitals.shape[0]:
            doses.append(last)  # infusions continue unchanged after hand-over
            states.append(-1)
        return torch.stack(doses), torch.tensor(states), torch.tensor(int(handed_over))


def model():
    torch.manual_seed(5216)
    return PressorProtocol().eval()


def _vitals(maps, lactate=2.0, seed=0):
    g = torch.Generator().manual_seed(seed)
    m = torch.tensor(maps, dtype=torch.float32)
    hr = 90.0 + 20.0 * torch.rand(len(maps), generator=g)
    lac = torch.full((len(maps),), lactate)
    return (torch.stack([m, hr, lac], 1),)


def example_inputs():
    # shock: start, titrate up past the vasopressin threshold, recover, wean off
    maps = [70, 62, 60, 58, 57, 59, 60, 61, 63, 66, 70, 78, 80, 82, 79, 77, 76, 78] + [80] * 22
    return _vitals(maps, seed=1)


def dynamic_shapes():
    return ({0: Dim("readings", min=2, max=144)},)


def verify_inputs():
    long_run = [72 + 8 * ((i // 12) % 2) - 12 * ((i // 30) % 2) for i in range(144)]
    return [
        example_inputs(),                                          # OFF -> NOREPI -> +VASO -> WEANING -> OFF
        _vitals([72, 74], seed=2),                                 # min readings, stable: stays OFF
        _vitals(long_run, seed=3),                                 # max readings: cycles of drops and recovery
        _vitals([60, 55, 52, 48, 47, 46], lactate=6.0, seed=4),    # refractory shock -> break, padded with last dose
        _vitals([60, 62, 70, 80, 81, 83, 80, 62, 66, 70, 80, 81, 82, 84, 85, 86, 88, 90], seed=5),  # in-range resets, wean interrupted by a drop
    ]
