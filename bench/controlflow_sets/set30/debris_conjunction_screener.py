"""Space-debris conjunction screening for a satellite constellation (kind X).

Inputs: S satellite states and M tracked debris states (position km, velocity km/s) in a
local Hill frame around the constellation's reference orbit.  For every satellite the
debris within the screening volume is found; if none, the satellite is skipped.  For the
candidates the relative motion is propagated step by step with a while loop until the
closest separation stops shrinking (time of closest approach).  A risk submodule turns
miss distance and closing speed into a collision probability, returning immediately for
hard-body violations.

constructs: 1 (if on tensors), 2 (return inside branch in a submodule), 4 (while with
            tensor condition), 5 (for over the dynamic S, lists + torch.stack),
            6 (continue on tensor condition), 7 (helpers calling helpers, submodule control flow)
"""
import torch
import torch.nn as nn


def propagate(rel, dt):
    return torch.cat([rel[:, :3] + dt * rel[:, 3:], rel[:, 3:]], dim=1)


def separation(rel):
    return rel[:, :3].norm(dim=1).min()


def time_of_closest_approach(rel, dt, max_steps):
    d_prev = separation(rel)
    nxt = propagate(rel, dt)
    d = separation(nxt)
    steps = 0
    while d < d_prev and steps < max_steps:
        rel, d_prev = nxt, d
        nxt = propagate(rel, dt)
        d = separation(nxt)
        steps += 1
    return d_prev, rel, steps


class CollisionRisk(nn.Module):
    def __init__(self, hard_body_km=0.05):
        super().__init__()
        self.hard_body_km = hard_body_km
        self.mlp = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, miss_km, rel_at_tca):
        if miss_km < self.hard_body_km:
            return torch.ones(())
        closing = rel_at_tca[:, 3:].norm(dim=1).max()
        feats = torch.stack([torch.log10(miss_km), closing, torch.tensor(float(rel_at_tca.shape[0]))])
        return torch.sigmoid(self.mlp(feats).squeeze() - 3.0 * torch.log10(miss_km / self.hard_body_km))


class ConjunctionScreener(nn.Module):
    def __init__(self, screen_km=25.0, dt_s=1.0, max_steps=200):
        super().__init__()
        self.screen_km = screen_km
        self.dt_s = dt_s
        self.max_steps = max_steps
        self.risk = CollisionRisk()

    def forward(self, sats, debris):
        risks, misses = [], []
        for s in range(sats.shape[0]):
            rel = debris - sats[s]
            dist = rel[:, :3].norm(dim=1)
            near = dist < self.screen_km
            if not near.any():
                risks.append(torch.zeros(()))
                misses.append(dist.min())
                continue
            miss, rel_tca, _ = time_of_closest_approach(rel[near], self.dt_s, self.max_steps)
            risks.append(self.risk(miss, rel_tca))
            misses.append(miss)
        return torch.stack(risks), torch.stack(misses)


def model():
    torch.manual_seed(314)
    return ConjunctionScreener().eval()


def _encounter(sat, miss, vel, t_tca):
    """Debris state that passes `sat` (position) with miss vector `miss` (perpendicular to
    `vel`) at time t_tca seconds from now."""
    rel0 = [m - v * t_tca for m, v in zip(miss, vel)]
    return [p + r for p, r in zip(sat, rel0)] + list(vel)


def _scene(sats, debris):
    return torch.tensor(sats, dtype=torch.float32), torch.tensor(debris, dtype=torch.float32)


def example_inputs():
    s0, s1, s2 = [0, 0, 0], [100, 0, 0], [0, 200, 0]
    return _scene(
        [s0 + [0, 0, 0], s1 + [0, 0, 0], s2 + [0, 0, 0]],
        [_encounter(s0, [0, 1.1, 0], [-0.5, 0, 0], 20.3),      # sat 0: TCA in ~20 steps, miss 1.1 km
         [60, 60, 0, 0.01, 0, 0],                              # far from everyone
         _encounter(s1, [0, 0, 3.0], [0.2, 0, 0], 30.3),       # sat 1: miss 3 km
         _encounter(s2, [0.03, 0, 0], [0, -1.2, 0], 12.02),     # sat 2: 30 m miss -> hard-body violation
         _encounter(s0, [0, -4.0, 0], [0.3, 0.0, 0], 15.7)],   # second candidate for sat 0
    )


def dynamic_shapes():
    return ({0: torch.export.Dim("sats", min=2, max=64)}, {0: torch.export.Dim("debris", min=2, max=4096)})


def verify_inputs():
    return [
        example_inputs(),     # sat0/sat1: while runs many steps, MLP risk; sat2: hard-body early return in submodule
        _scene([[0, 0, 0, 0, 0, 0], [0, 80, 0, 0, 0, 0]],
               [[300, 0, 0, 0, 0, 0], [0, -300, 0, 0, 0, 0]]),   # nothing within 25 km of anyone: 'continue' for both
        _scene([[0, 0, 0, 0, 0, 0], [0, 50, 0, 0, 0, 0]],
               [[8, 2, 0, 0.5, 0, 0], [0, 62, 0, 0, 0.1, 0.003]]),   # both receding: while runs 0 times, MLP risk
        _scene([[0, 0, 0, 0, 0, 0], [0, 80, 0, 0, 0, 0]],
               [_encounter([0, 0, 0], [0, 0.5, 0], [-0.1, 0, 0], 230.7),
                [300, 300, 0, 0, 0, 0]]),                          # sat0: slow approach, loop stops at max_steps=200; sat1 skipped
        _scene([[0, 0, 0, 0, 0, 0], [0, -50, 0, 0, 0, 0]],
               [_encounter([0, 0, 0], [0.2, 0, 0.1], [0, -1.0, 0], 1.3),
                _encounter([0, -50, 0], [0, 0, 0.04], [0.8, 0, 0], 0.02)]),   # sat0: while runs exactly once; sat1: 0 times, hard-body
    ]
