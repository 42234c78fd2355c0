"""Multi-species generalized Lotka-Volterra community simulator.

Species interaction strengths come from a learned bilinear form over species
trait vectors (body mass, trophic level, ...).  Integration uses explicit
Euler with step-size halving whenever a population would go negative, and
stops early once the community has collapsed or reached equilibrium.
"""
import torch
import torch.nn as nn


class InteractionModel(nn.Module):
    def __init__(self, n_traits=4):
        super().__init__()
        self.proj = nn.Linear(n_traits, 8, bias=False)
        self.growth = nn.Linear(n_traits, 1)

    def forward(self, traits):
        z = self.proj(traits)
        a = -torch.tanh(z @ z.T) * 0.5 - torch.eye(traits.shape[0])  # self-limitation
        r = torch.tanh(self.growth(traits)).squeeze(-1)
        return a, r


class LotkaVolterraStepper(nn.Module):
    def __init__(self, t_end=20.0, dt0=0.1, min_dt=1e-3, extinct=1e-4, max_steps=300):
        super().__init__()
        self.interactions = InteractionModel()
        self.t_end = t_end
        self.dt0 = dt0
        self.min_dt = min_dt
        self.extinct = extinct
        self.max_steps = max_steps

    def rate(self, pop, a, r):
        return pop * (r + a @ pop)

    def forward(self, traits, pop0):
        a, r = self.interactions(traits)
        pop = pop0.clone()
        t = torch.zeros(())
        dt = torch.tensor(self.dt0)
        steps = 0
        history = [pop]
        while t < self.t_end and steps < self.max_steps:
            steps += 1
            dpop = self.rate(pop, a, r)
            new = pop + dt * dpop
            if (new < 0).any() or not torch.isfinite(new).all():
                if dt > self.min_dt:
                    dt = dt / 2
                    continue
                new = new.clamp(min=0.0)
            pop = torch.where(new < self.extinct, torch.zeros_like(new), new)
            t = t + dt
            history.append(pop)
            if pop.sum() == 0:
                break  # community collapsed
            if (dpop.abs() < 1e-4).all():
                break  # equilibrium
        traj = torch.stack(history)
        return pop, traj.mean(dim=0), t


def model():
    torch.manual_seed(5113)
    return LotkaVolterraStepper().eval()


def _traits(n, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(n, 4, generator=g)


def example_inputs():
    return (_traits(6, 1), torch.full((6,), 0.5))


def dynamic_shapes():
    s = torch.export.Dim("species", min=2, max=48)
    return ({0: s}, {0: s})


def verify_inputs():
    return [
        # example: normal run to t_end
        example_inputs(),
        # min species, tiny populations -> everyone goes extinct -> collapse break
        (_traits(2, 2), torch.full((2,), 1e-5)),
        # max species, large initial populations -> overshoot -> dt halving (continue);
        # small dt means the loop stops on max_steps before t_end
        (_traits(48, 3), torch.full((48,), 30.0)),
        # all-zero start: extinct from the first step -> collapse break
        (_traits(3, 4), torch.zeros(3)),
        # stable 3-species community -> equilibrium break before t_end
        (_traits(3, 4), torch.full((3,), 0.5)),
        # absurd census numbers: even the smallest dt overshoots -> clamp at min_dt,
        # everything is wiped out -> collapse break
        (_traits(3, 5), torch.full((3,), 1e4)),
    ]
