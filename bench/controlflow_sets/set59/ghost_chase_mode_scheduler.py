"""Maze arcade game: ghost mode scheduler and movement for a replayed level.

The ghosts alternate between SCATTER (each heads for its home corner) and
CHASE (they target the player, each with its own look-ahead) on a fixed
phase timetable.  Eating a power pellet makes them FRIGHTENED for a few
ticks (phase timer paused): they flee, and touching one sends it home to
respawn while the score for consecutive eats doubles.  Touching a ghost in
any other mode ends the replay.  A small learned head modulates each
ghost's speed ("Elroy" behaviour) from its distance to the player.
"""
import torch
import torch.nn as nn

SCATTER, CHASE, FRIGHTENED = 0, 1, 2


class GhostScheduler(nn.Module):
    def __init__(self):
        super().__init__()
        self.phase_ticks = [7, 20, 7, 20, 5]      # then chase forever
        self.frightened_ticks = 8
        self.respawn_ticks = 4
        self.catch_radius = 1.0   # same maze tile
        self.look_ahead = [0.0, 4.0, 2.0, -2.0]   # per-ghost chase target offset
        self.register_buffer("corners", torch.tensor([[0.0, 0.0], [27.0, 0.0],
                                                      [0.0, 30.0], [27.0, 30.0]]))
        self.register_buffer("home", torch.tensor([13.5, 14.0]))
        self.elroy = nn.Linear(3, 1)

    def step_towards(self, pos, target, speed):
        delta = target - pos
        dist = torch.linalg.vector_norm(delta)
        if dist <= speed:
            return target.clone()
        return pos + delta / dist * speed

    def forward(self, pac_path, pellets, ghosts):
        n_ticks = pac_path.shape[0]
        n_ghosts = ghosts.shape[0]
        pos = [ghosts[g].clone() for g in range(n_ghosts)]
        respawn = [0] * n_ghosts
        phase, phase_timer, frightened, chain = 0, 0, 0, 0
        score = torch.zeros(())
        modes = []
        for t in range(n_ticks):
            pac = pac_path[t]
            heading = pac - pac_path[t - 1] if t > 0 else torch.zeros(2)
            if pellets[t] > 0.5:
                frightened = self.frightened_ticks
                chain = 0
            if frightened > 0:
                mode = FRIGHTENED
                frightened -= 1
            else:
                phase_timer += 1
                if phase < len(self.phase_ticks) and phase_timer >= self.phase_ticks[phase]:
                    phase += 1
                    phase_timer = 0
                mode = CHASE if phase % 2 == 1 or phase >= len(self.phase_ticks) else SCATTER
            modes.append(mode)

            for g in range(n_ghosts):
                if respawn[g] > 0:
                    respawn[g] -= 1
                    if respawn[g] == 0:
                        pos[g] = self.home.clone()
                    continue
                if mode == SCATTER:
                    target, speed = self.corners[g % 4], 0.9
                elif mode == CHASE:
                    target, speed = pac + self.look_ahead[g % 4] * heading, 0.9
                else:
                    target, speed = pos[g] + 4.0 * (pos[g] - pac), 0.5   # run directly away
                feats = torch.cat([(pos[g] - pac) / 30.0, torch.tensor([t / 100.0])])
                speed = speed * (1.0 + 0.05 * torch.tanh(self.elroy(feats)).squeeze(0))
                pos[g] = self.step_towards(pos[g], target, speed)
                if torch.linalg.vector_norm(pos[g] - pac) < self.catch_radius:
                    if mode == FRIGHTENED:
                        score = score + 200.0 * 2 ** chain
                        chain += 1
                        respawn[g] = self.respawn_ticks
                    else:
                        # player caught: the replay ends here
                        log = torch.tensor(modes + [-1] * (n_ticks - len(modes)))
                        return log, score, torch.tensor(t), torch.stack(pos)
        return torch.tensor(modes), score, torch.tensor(-1), torch.stack(pos)


def model():
    torch.manual_seed(5911)
    return GhostScheduler().eval()


def make_level(path_pts, n_ticks, pellet_ticks, ghosts):
    """Piecewise-linear player path through path_pts, sampled at n_ticks."""
    pts = torch.tensor(path_pts, dtype=torch.float32)
    s = torch.linspace(0, len(path_pts) - 1, n_ticks)
    i0 = torch.clamp(s.floor().long(), max=len(path_pts) - 2)
    w = (s - i0.float()).unsqueeze(1)
    path = pts[i0] * (1 - w) + pts[i0 + 1] * w
    pellets = torch.zeros(n_ticks)
    pellets[pellet_ticks] = 1.0
    return path, pellets, torch.tensor(ghosts, dtype=torch.float32)


def example_inputs():
    # 40 ticks, player loops around the bottom; pellet at tick 12; 4 ghosts
    return make_level([[2.0, 28.0], [25.0, 28.0], [25.0, 20.0], [2.0, 20.0]], 40, [12],
                      [[13.0, 14.0], [14.0, 14.0], [12.0, 15.0], [15.0, 15.0]])


def dynamic_shapes():
    t = torch.export.Dim("ticks", min=4, max=120)
    g = torch.export.Dim("ghosts", min=2, max=6)
    return ({0: t}, {0: t}, {0: g})


def verify_inputs():
    ex = example_inputs()
    # 4 ticks, 2 ghosts far away in scatter: nothing happens
    quiet = make_level([[1.0, 1.0], [3.0, 1.0]], 4, [], [[20.0, 25.0], [26.0, 29.0]])
    # pellet at tick 0 with two ghosts just ahead of the player: both eaten (200 + 400),
    # they respawn at home, scatter, and the chase catches the player
    eat = make_level([[2.0, 10.0], [14.0, 10.0], [13.5, 14.0], [13.5, 20.0]], 30, [0],
                     [[4.0, 10.0], [6.0, 10.1], [25.0, 28.0]])
    # 120 ticks, 6 ghosts, player runs the outer loop and survives: all phases
    # including the final endless chase; pellets late in the level
    marathon = make_level([[1.0, 1.0], [26.0, 1.0], [26.0, 29.0], [1.0, 29.0], [1.0, 1.0],
                           [26.0, 1.0]], 120, [50, 94, 109, 111, 115],
                          [[26.7, 11.3], [14.2, 19.1], [22.7, 27.8], [24.4, 3.9], [11.3, 6.1],
                           [5.8, 18.6]])
    return [ex, quiet, eat, marathon]
