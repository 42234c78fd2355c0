"""Micro-computer rice cooker controller replayed over a logged temperature trace.

States: SOAK -> HEAT -> BOIL -> SIMMER -> REST -> KEEP_WARM. Transitions depend on pot temperature
and time spent in the state. A dry-pot spike during boil/simmer ends cooking early. A heater PI
submodule (with anti-windup) computes power. After the trace, a lumped thermal model estimates how
many more minutes until the pot cools to the keep-warm band.
"""
import torch
import torch.nn as nn

SOAK, HEAT, BOIL, SIMMER, REST, KEEP_WARM = range(6)


class HeaterPI(nn.Module):
    def __init__(self, kp=0.08, ki=0.01):
        super().__init__()
        self.kp = kp
        self.ki = ki

    def forward(self, setpoint, temp, integral):
        err = setpoint - temp
        power = self.kp * err + self.ki * integral
        if power > 1.0 or power < 0.0:
            # saturated: freeze the integrator (anti-windup)
            return torch.clamp(power, 0.0, 1.0), integral
        return power, integral + err


class RiceCooker(nn.Module):
    def __init__(self, soak_minutes=3, simmer_minutes=4, rest_minutes=3, dry_temp=135.0):
        super().__init__()
        self.soak_minutes = soak_minutes
        self.simmer_minutes = simmer_minutes
        self.rest_minutes = rest_minutes
        self.dry_temp = dry_temp
        self.heater = HeaterPI()
        self.setpoints = {SOAK: 55.0, HEAT: 100.0, BOIL: 100.0, SIMMER: 98.0, REST: 0.0, KEEP_WARM: 70.0}
        self.cooling = nn.Parameter(torch.tensor(0.08))

    def forward(self, temps, ambient):
        # temps: (T,) pot temperature per minute; ambient: (1,)
        state = SOAK
        in_state = 0
        integral = torch.zeros(())
        powers, states = [], []
        dry_fault = torch.tensor(0.0)
        for t in range(temps.shape[0]):
            temp = temps[t]
            in_state += 1
            if state == SOAK and in_state >= self.soak_minutes:
                state, in_state = HEAT, 0
            elif state == HEAT and temp >= 98.0:
                state, in_state = BOIL, 0
            elif state == BOIL or state == SIMMER:
                if temp > self.dry_temp:
                    dry_fault = torch.tensor(1.0)
                    powers.append(torch.zeros(()))
                    states.append(torch.tensor(float(KEEP_WARM)))
                    break
                if state == BOIL and temp > 103.0:
                    state, in_state = SIMMER, 0  # water is gone from the pot bottom
                elif state == SIMMER and in_state >= self.simmer_minutes:
                    state, in_state = REST, 0
            elif state == REST and in_state >= self.rest_minutes:
                state, in_state = KEEP_WARM, 0

            if state == REST:
                power = torch.zeros(())
            else:
                power, integral = self.heater(torch.tensor(self.setpoints[state]), temp, integral)
            powers.append(power)
            states.append(torch.tensor(float(state)))

        # minutes until the pot has cooled into the keep-warm band
        temp = temps[len(powers) - 1]
        minutes = torch.zeros(())
        while temp > 75.0 and minutes < 120:
            temp = ambient.reshape(()) + (temp - ambient.reshape(())) * torch.exp(-self.cooling)
            minutes = minutes + 1
        return torch.stack(powers), torch.stack(states), dry_fault, minutes


def model():
    torch.manual_seed(48012)
    return RiceCooker().eval()


def example_inputs():
    temps = torch.tensor([25.0, 40.0, 52.0, 60.0, 80.0, 99.0, 100.0, 100.5, 104.0, 100.0, 99.0,
                          98.5, 98.0, 97.0, 96.0, 94.0, 90.0, 86.0, 80.0, 74.0])
    return temps, torch.tensor([22.0])


def dynamic_shapes():
    return ({0: torch.export.Dim("minutes", min=2, max=240)}, None)


def verify_inputs():
    return [
        example_inputs(),  # full cycle through every state, ends below 75 C (while runs 0 times)
        (torch.tensor([25.0, 45.0, 56.0, 70.0, 99.0, 100.0, 140.0, 150.0]), torch.tensor([22.0])),  # dry pot during boil -> break
        (torch.tensor([25.0, 45.0, 56.0, 70.0, 99.0, 100.0, 104.0, 100.0, 137.0, 100.0]), torch.tensor([22.0])),  # dry pot during simmer
        (torch.tensor([30.0, 52.0, 60.0, 75.0, 88.0]), torch.tensor([25.0])),  # stopped while heating: cooling loop runs a few times
        (torch.tensor([90.0, 76.0]), torch.tensor([25.0])),  # min length: one cooling step
    ]
