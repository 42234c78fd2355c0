"""Basketball shot-clock replay from a play-by-play event feed.

Events: seconds since previous event, event code (0 dribble/pass, 1 shot hits
rim, 2 change of possession, 3 foul), offensive-rebound flag.  Produces the
shot clock and game clock after each event and counts shot-clock violations;
stops when the period ends.
"""
import torch
import torch.nn as nn


class ShotClockTracker(nn.Module):
    def __init__(self, period_seconds=720.0, full_clock=24.0, reset_clock=14.0):
        super().__init__()
        self.period_seconds = period_seconds
        self.full_clock = full_clock
        self.reset_clock = reset_clock
        # learned pace estimate (possessions/48) from clock history stats
        self.pace = nn.Linear(3, 1)

    def forward(self, events):
        game = torch.tensor(self.period_seconds)
        shot = torch.tensor(self.full_clock)
        violations = torch.zeros((), dtype=torch.long)
        states = []
        for i in range(events.shape[0]):
            dt, kind, oreb = events[i, 0], events[i, 1], events[i, 2]
            game = game - dt
            if game <= 0:
                states.append(torch.stack([shot, torch.zeros(())]))
                break
            shot = shot - dt
            if shot <= 0:
                violations = violations + 1
                shot = torch.tensor(self.full_clock)
            if kind == 0:
                states.append(torch.stack([shot, game]))
                continue
            if kind == 1:
                shot = torch.tensor(self.reset_clock) if oreb > 0 else torch.tensor(self.full_clock)
            elif kind == 2:
                shot = torch.tensor(self.full_clock)
            else:
                shot = torch.clamp(shot, min=self.reset_clock)
            states.append(torch.stack([shot, game]))
        clocks = torch.stack(states)
        stats = torch.stack([clocks[:, 0].mean(), clocks[:, 0].min(), violations.float()])
        return clocks, violations, self.pace(stats)


def model():
    torch.manual_seed(5110)
    return ShotClockTracker().eval()


def _feed(n, seed, long_gap_at=()):
    g = torch.Generator().manual_seed(seed)
    dt = 1.0 + 6.0 * torch.rand(n, generator=g)
    for i in long_gap_at:
        dt[i] = 26.0
    kind = torch.randint(0, 4, (n,), generator=g).float()
    oreb = torch.randint(0, 2, (n,), generator=g).float()
    return torch.stack([dt, kind, oreb], dim=1)


def example_inputs():
    return (_feed(40, 1, long_gap_at=(5,)),)


def dynamic_shapes():
    return ({0: torch.export.Dim("events", min=2, max=300)},)


def verify_inputs():
    return [
        # example: all event kinds (dribble continue, rim w/ and w/o oreb, turnover,
        # foul), one violation; period does not end
        example_inputs(),
        # min: two events, period not over
        (torch.tensor([[3.0, 0.0, 0.0], [4.0, 1.0, 1.0]]),),
        # max: long feed -> game clock hits zero -> break
        (_feed(300, 2),),
    ]
