"""Pool / billiards shot simulator for a training app: a small cue model turns the player's
aim, power and side-spin into the cue-ball velocity (including squirt), then the balls are
stepped on the table with rolling friction, cushion rebounds, pockets and elastic
ball-ball collisions until everything is at rest.

Kind X. Constructs: 1 (if on tensor positions / distances / velocities), 2 (helper
returns inside branches; variables reassigned in one branch), 3 (and in the while and in
the contact test), 4 (while any ball is still moving, loop-carried positions/velocities),
5 (for over the dynamic number of balls, nested pair loop), 6 (continue for pocketed
balls, for a ball that just dropped, for pocketed partners), 7 (cushion helper and
collision helper with their own branches).
"""
import torch
import torch.nn as nn

W, H = 2.54, 1.27           # 9-ft table playing surface [m]
R = 0.028575                # ball radius [m]
POCKETS = torch.tensor([[0.0, 0.0], [W / 2, -0.02], [W, 0.0], [0.0, H], [W / 2, H + 0.02], [W, H]])


def cushion(p, v, restitution):
    p, v = p.clone(), v.clone()
    if p[0] < R:
        p[0], v[0] = 2 * R - p[0], -restitution * v[0]
    elif p[0] > W - R:
        p[0], v[0] = 2 * (W - R) - p[0], -restitution * v[0]
    if p[1] < R:
        p[1], v[1] = 2 * R - p[1], -restitution * v[1]
    elif p[1] > H - R:
        p[1], v[1] = 2 * (H - R) - p[1], -restitution * v[1]
    return p, v


def collide(pi, pj, vi, vj):
    """Equal-mass elastic collision along the line of centres; no-op if separating."""
    delta = pj - pi
    dist = delta.norm()
    if dist >= 2 * R or dist < 1e-6:
        return vi, vj
    n = delta / dist
    approach = ((vi - vj) * n).sum()
    if approach <= 0:
        return vi, vj                      # already moving apart
    return vi - approach * n, vj + approach * n


class ShotSimulator(nn.Module):
    def __init__(self, dt=0.01, decel=3.0, max_steps=120, pocket_radius=0.06, restitution=0.8):
        super().__init__()
        self.dt = dt
        self.decel = decel
        self.max_steps = max_steps
        self.pocket_radius = pocket_radius
        self.restitution = restitution
        self.cue = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 2))

    def forward(self, balls, shot):
        # balls: (B, 2) positions [m], ball 0 is the cue ball; shot: (3,) aim [rad], power 0..1, spin -1..1
        n = balls.shape[0]
        adj = torch.tanh(self.cue(shot[1:]))
        angle = shot[0] + 0.02 * adj[0] * shot[2]              # squirt from side-spin
        speed = 4.0 * shot[1] * (1.0 + 0.05 * adj[1])
        pos = balls.clone()
        vel = torch.zeros_like(pos)
        vel[0] = speed * torch.stack([torch.cos(angle), torch.sin(angle)])
        pocketed = torch.zeros(n, dtype=torch.bool)
        steps = 0
        while (vel.norm(dim=1) > 0).any() and steps < self.max_steps:
            pos = pos + vel * self.dt
            for i in range(n):
                if pocketed[i]:
                    continue
                if (POCKETS - pos[i]).norm(dim=1).min() < self.pocket_radius:
                    pocketed[i] = True
                    vel[i] = 0.0
                    continue
                pos[i], vel[i] = cushion(pos[i], vel[i], self.restitution)
                for j in range(i + 1, n):
                    if pocketed[j]:
                        continue
                    vel[i], vel[j] = collide(pos[i], pos[j], vel[i], vel[j])
            speed_now = vel.norm(dim=1, keepdim=True)
            vel = vel * ((speed_now - self.decel * self.dt).clamp(min=0.0) / speed_now.clamp(min=1e-9))
            steps += 1
        return pos, pocketed.float(), torch.tensor(float(steps))


def model():
    torch.manual_seed(3916)
    return ShotSimulator().eval()


def example_inputs():
    # 20-degree cut shot on an object ball near the top-right corner: the object ball drops,
    # the cue ball keeps rolling afterwards (pocketed balls skipped), third ball untouched
    balls = torch.tensor([[1.4533, 0.6670], [2.40, 1.13], [0.8, 0.3]])
    return (balls, torch.tensor([0.4363, 0.8, 0.0]))


def dynamic_shapes():
    return ({0: torch.export.Dim("balls", min=2, max=16)}, None)


def verify_inputs():
    ex = example_inputs()   # the example: path described in example_inputs()
    # power shot with side-spin across open table: rebounds off the right cushion, still
    # rolling when the 120-step budget runs out (while ends on the step counter)
    open_table = (torch.tensor([[0.5, 0.3], [2.0, 1.0]]), torch.tensor([0.3, 1.0, 0.8]))
    # bank shot into the bottom cushion near the left end, then off the left cushion
    bank = (torch.tensor([[0.4, 0.5], [2.0, 1.0]]), torch.tensor([-2.0, 0.8, -0.5]))
    # scratch: straight into the bottom-left corner pocket, other ball untouched
    scratch = (torch.tensor([[0.3, 0.2], [2.0, 0.9]]), torch.tensor([-2.55, 0.4, 0.0]))
    # break shot into a 6-ball cluster at full power: many collisions (also between balls
    # moving apart), top cushion, everything comes to rest
    rack = torch.tensor([[0.6, 0.635], [1.9, 0.635], [1.95, 0.606], [1.95, 0.664],
                         [2.0, 0.577], [2.0, 0.635]])
    brk = (rack, torch.tensor([0.0, 1.0, -0.3]))
    # no stroke (power 0): nothing moves, the while loop never runs
    still = (torch.tensor([[1.0, 0.6], [1.5, 0.6], [2.0, 0.3]]), torch.tensor([0.0, 0.0, 0.0]))
    return [ex, open_table, bank, scratch, brk, still]
