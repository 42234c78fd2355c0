"""Green-Ampt infiltration and runoff for a field plot under a storm hyetograph.

Rainfall intensity comes in 10-minute steps.  While the surface is not
ponded, all rain infiltrates as long as it is below the infiltration
capacity; once ponded, the cumulative infiltration over the step comes from
the implicit Green-Ampt equation, solved by Newton iterations.  Ponding ends
when the rain drops below capacity, and once the soil profile above the
restrictive layer is full, every further drop runs off.  The saturated
conductivity is adjusted by a small pedotransfer model (organic matter,
crusting).
"""
import torch
import torch.nn as nn


class GreenAmpt(nn.Module):
    def __init__(self, dt_h=1.0 / 6.0, newton_tol=1e-4, max_newton=50):
        super().__init__()
        self.dt_h = dt_h
        self.newton_tol = newton_tol
        self.max_newton = max_newton
        self.ks_net = nn.Sequential(nn.Linear(2, 6), nn.Tanh(), nn.Linear(6, 1), nn.Tanh())

    def ponded_step(self, f_prev, ks, suction):
        """Cumulative infiltration after one ponded step (implicit Green-Ampt)."""
        f_new = f_prev + ks * self.dt_h
        delta = torch.ones(())
        it = 0
        while delta.abs() > self.newton_tol and it < self.max_newton:
            g = f_new - suction * torch.log((suction + f_new) / (suction + f_prev)) - f_prev - ks * self.dt_h
            dg = 1.0 - suction / (suction + f_new)
            delta = g / dg
            f_new = f_new - delta
            it += 1
        return f_new

    def forward(self, rain_mm_h, soil):
        # rain_mm_h: (n_steps,); soil: (5,) [Ks mm/h, wetting-front suction mm, moisture deficit,
        #                                     organic matter %, depth to restrictive layer mm]
        ks = soil[0] * torch.exp(0.5 * self.ks_net(soil[2:4]).squeeze(-1))
        suction = soil[1] * soil[2]
        storage = soil[4] * soil[2]

        f = torch.zeros(())
        ponded = False
        infiltration, runoff = [], []
        n = rain_mm_h.shape[0]
        for t in range(n):
            rain = rain_mm_h[t] * self.dt_h
            if rain <= 0:
                ponded = False
                infiltration.append(torch.zeros(()))
                runoff.append(torch.zeros(()))
                continue
            if not ponded:
                capacity = ks * (1.0 + suction / f) if f > 0 else torch.tensor(float("inf"))
                if rain_mm_h[t] > capacity:
                    ponded = True
            if ponded:
                possible = self.ponded_step(f, ks, suction) - f
                if possible >= rain:
                    ponded = False      # rain eased off below capacity
                inf_t = torch.minimum(possible, rain)
            else:
                inf_t = rain
            f = f + inf_t
            infiltration.append(inf_t)
            runoff.append(rain - inf_t)
            if f >= storage:
                # profile above the restrictive layer is full: the rest of the storm runs off
                for t2 in range(t + 1, n):
                    infiltration.append(torch.zeros(()))
                    runoff.append(rain_mm_h[t2] * self.dt_h)
                break
        return torch.stack(infiltration), torch.stack(runoff), f.reshape(1)


def model():
    torch.manual_seed(5718)
    return GreenAmpt().eval()


N_STEPS = torch.export.Dim("n_steps", min=2, max=288)

LOAM = torch.tensor([10.0, 90.0, 0.3, 2.5, 600.0])
THIN_CLAY = torch.tensor([1.0, 270.0, 0.2, 1.0, 150.0])


def example_inputs():
    # 6-hour storm: drizzle, a 40 mm/h burst, a dry spell and a tail
    rain = torch.cat([torch.full((6,), 4.0), torch.full((6,), 40.0), torch.full((6,), 6.0),
                      torch.zeros(3), torch.full((15,), 20.0)])
    return (rain, LOAM)


def dynamic_shapes():
    return ({0: N_STEPS}, None)


def verify_inputs():
    return [
        # first step F = 0 (infinite capacity), burst ponds the surface (Newton), ponding ends
        # when rain eases, dry steps (continue), tail ponds again
        example_inputs(),
        # 2 dry steps -> continue only
        (torch.zeros(2), LOAM),
        # 48 h of steady 6 mm/h on a thin clay layer -> ponds, profile fills, loop breaks and
        # the remaining steps are all runoff
        (torch.full((288,), 6.0), THIN_CLAY),
        # gentle 2 mm/h rain on loam: never ponds
        (torch.full((24,), 2.0), LOAM),
    ]
