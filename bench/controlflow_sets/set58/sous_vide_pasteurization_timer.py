"""Food-safety timer for a multi-stage sous-vide program (e.g. chicken breast).

Simulates the product core temperature minute by minute (first-order lag with a learned
correction of the time constant), accumulates Salmonella log reductions with D/z
kinetics, stops as soon as the target reduction is reached, and extends the last stage
if the program is too short. Programs that hold the bath in the danger zone are refused.
Outputs: minutes to safe, log reduction, peak core temp, status
(0 done in program, 1 done after extension, 2 refused, 3 not reachable), core temperature
at the end of each stage.
"""
import torch
import torch.nn as nn


class CoreHeating(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(2, 1)

    def forward(self, thickness_cm, start_c):
        base = 2.0 * thickness_cm ** 2  # minutes, ~ L^2 / diffusivity for meat
        x = torch.stack([thickness_cm / 5.0, start_c / 20.0])
        return base * (1.0 + 0.2 * torch.tanh(self.net(x)[0]))


class SousVideTimer(nn.Module):
    def __init__(self, d_ref=3.0, t_ref=60.0, z=6.0, unsafe_below=54.4, lethal_from=50.0,
                 hold_cap=600):
        super().__init__()
        self.heating = CoreHeating()
        self.d_ref, self.t_ref, self.z = d_ref, t_ref, z
        self.unsafe_below, self.lethal_from, self.hold_cap = unsafe_below, lethal_from, hold_cap

    def step(self, core, bath, tau):
        return core + (bath - core) * (1.0 - torch.exp(-1.0 / tau))

    def lethality(self, core):
        if core < self.lethal_from:
            return torch.zeros(())  # no meaningful kill below 50 degC
        return 1.0 / (self.d_ref * 10.0 ** ((self.t_ref - core) / self.z))

    def forward(self, bath, minutes, product):
        thickness, start, target = product[0], product[1], product[2]
        n_stages = bath.shape[0]
        if (bath < self.unsafe_below).any():
            # a stage would incubate pathogens: refuse the program
            return (torch.tensor(-1.0), torch.zeros(()), start, torch.tensor(2),
                    torch.full((n_stages,), -1.0))
        tau = self.heating(thickness, start)
        core, peak, logred = start, start, torch.zeros(())
        t, done = 0, False
        stage_end = []
        for s in range(n_stages):
            for _ in range(int(minutes[s].item())):
                t += 1
                core = self.step(core, bath[s], tau)
                peak = torch.maximum(peak, core)
                logred = logred + self.lethality(core)
                if logred >= target:
                    done = True
                    break
            stage_end.append(core)
            if done:
                break  # safe: pull the bag, remaining stages are skipped
        stage_end += [core] * (n_stages - len(stage_end))
        status = torch.tensor(0)
        if not done:
            extra = 0
            while logred < target and extra < self.hold_cap:
                extra += 1
                core = self.step(core, bath[-1], tau)
                peak = torch.maximum(peak, core)
                logred = logred + self.lethality(core)
            t += extra
            status = torch.tensor(1) if logred >= target else torch.tensor(3)
        return torch.tensor(float(t)), logred, peak, status, torch.stack(stage_end)


def model():
    torch.manual_seed(5818)
    return SousVideTimer().eval()


def example_inputs():
    # 3 cm chicken breast from the fridge: 45 min at 65, 60 min at 60, 30 min at 58 degC
    return (torch.tensor([65.0, 60.0, 58.0]), torch.tensor([45, 60, 30]),
            torch.tensor([3.0, 4.0, 7.0]))


def dynamic_shapes():
    stages = torch.export.Dim("stages", min=2, max=6)
    return ({0: stages}, {0: stages}, None)


def verify_inputs():
    return [
        # safe 20 min into stage 2: both loops exit early, stage 3 skipped
        example_inputs(),
        # 6-stage ramp too short for a thick roast: extended at the last bath temperature
        (torch.tensor([56.0, 57.0, 58.0, 59.0, 60.0, 61.0]), torch.tensor([5, 5, 5, 5, 5, 5]),
         torch.tensor([6.0, 4.0, 7.0])),
        # low-temperature program with a 50 degC stage: refused (danger zone)
        (torch.tensor([50.0, 58.0]), torch.tensor([30, 120]), torch.tensor([2.5, 4.0, 7.0])),
        # 54.5 degC hold with an absurd 40-log target: not reachable within the cap
        (torch.tensor([54.5, 54.5]), torch.tensor([10, 10]), torch.tensor([2.0, 20.0, 40.0])),
    ]
