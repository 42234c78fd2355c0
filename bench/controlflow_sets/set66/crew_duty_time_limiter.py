"""Airline crew duty legality: assign a day's rotation to cockpit crews (EASA-style FTL).

A crew reports 60 minutes before its first departure. Its maximum flight duty period (FDP)
depends on the local report time (reduced when reporting in the window of circadian low or
late at night) and shrinks by 30 minutes per sector beyond two. A long ground break on the
way (split duty) extends the FDP by half the break. If flying the next sector would break
the limit, a fresh crew takes over; positioning (deadhead) sectors count as duty but not as
flown sectors. If more crews than are on standby would be needed, the rest of the rotation
stays uncovered (-1).

Kind: X.  Constructs: 1, 2, 3, 5, 6, 7.
"""
import torch
import torch.nn as nn
from torch.export import Dim


def wocl_reduction(report_min):
    if report_min >= 120 and report_min < 360:
        return torch.tensor(60)      # reporting 02:00-05:59
    elif report_min >= 1320:
        return torch.tensor(30)      # reporting after 22:00
    return torch.tensor(0)


def max_fdp(report_min, sectors):
    base = torch.tensor(780) - wocl_reduction(report_min)
    extra = torch.clamp(sectors - 2, min=0) * 30
    return torch.clamp(base - extra, min=540)


class CrewDutyLimiter(nn.Module):
    def __init__(self, max_crews=2, split_duty_min=180):
        super().__init__()
        self.max_crews = max_crews
        self.split_duty_min = split_duty_min

    def forward(self, block_min, ground_min, deadhead, first_departure):
        # block_min, ground_min, deadhead: (S,) minutes / 0-1 flag, first_departure: () minute of day
        n = block_min.shape[0]
        crew = 0
        duty_start = first_departure - 60
        flown = torch.tensor(0)
        extension = torch.tensor(0)
        clock = first_departure.clone()
        assignment = []
        for s in range(n):
            arrival = clock + block_min[s]
            if deadhead[s] == 1:
                # positioning as passengers: duty time, not a flown sector
                assignment.append(torch.tensor(crew))
                clock = arrival + ground_min[s]
                continue
            fdp = max_fdp(duty_start % 1440, flown + 1) + extension
            if arrival + 30 - duty_start > fdp and flown > 0:
                crew += 1
                if crew >= self.max_crews:
                    break
                duty_start = clock - 60
                flown = torch.tensor(0)
                extension = torch.tensor(0)
            assignment.append(torch.tensor(crew))
            flown = flown + 1
            if ground_min[s] >= self.split_duty_min:
                extension = extension + (ground_min[s] - 30) // 2
            clock = arrival + ground_min[s]
        covered = torch.stack(assignment)
        uncovered = torch.full((n - covered.shape[0],), -1, dtype=torch.long)
        return torch.cat([covered, uncovered]), torch.tensor(min(crew + 1, self.max_crews))


def model():
    torch.manual_seed(18)
    return CrewDutyLimiter().eval()


def _rotation(sectors, first_departure):
    block = torch.tensor([s[0] for s in sectors])
    ground = torch.tensor([s[1] for s in sectors])
    deadhead = torch.tensor([s[2] if len(s) > 2 else 0 for s in sectors])
    return block, ground, deadhead, torch.tensor(first_departure)


def example_inputs():
    # 07:00 departure, six short island-hopper sectors with a 200 min break (split duty)
    return _rotation([(50, 35), (50, 35), (50, 200), (50, 35), (50, 35), (50, 0)], 7 * 60)


def dynamic_shapes():
    s = Dim("sectors", min=2, max=16)
    return ({0: s}, {0: s}, {0: s}, None)


def verify_inputs():
    return [
        # split duty extension keeps one crew legal for all six sectors
        example_inputs(),
        # 05:30 departure (report in the WOCL), twelve sectors, no long break: crew change,
        # then the second crew also runs out -> no third crew on standby (break), rest uncovered
        _rotation([(95, 35)] * 11 + [(95, 0)], 5 * 60 + 30),
        # late-night report (23:30) with a positioning flight first (deadhead `continue`)
        _rotation([(120, 60, 1), (210, 70), (200, 50), (190, 0)], 23 * 60 + 50),
        # short day, two sectors: one crew, no change
        _rotation([(60, 40), (60, 0)], 12 * 60),
        # two long sectors from a morning report: crew change exactly once
        _rotation([(420, 60), (400, 0)], 9 * 60),
    ]
