"""Account-security gate for a stream of login attempts: lockout after repeated
failures, impossible-travel challenge on successful logins, and a learned risk
score per attempt for the security dashboard.

Kind T; constructs 1, 2, 3, 5, 6, 9."""
import torch
import torch.nn as nn
from torch.export import Dim

ALLOW, CHALLENGE, BLOCK = 0, 1, 2


class LoginLockoutMonitor(nn.Module):
    def __init__(self, strict=False):
        super().__init__()
        torch.manual_seed(409)
        self.risk = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 1))
        self.max_fails = 5
        self.lockout_s = 300.0
        self.max_speed_kmh = 900.0       # faster than an airliner -> impossible travel
        self.strict = strict             # strict mode: challenge every login from a new device

    def forward(self, attempts):
        # attempts: [T, 4] = (success 0/1, seconds since previous attempt, km from previous location, new device 0/1)
        fails = torch.zeros(())
        lock_left = torch.zeros(())
        decisions, risks = [], []
        for i in range(attempts.shape[0]):
            ok, gap, dist, new_dev = attempts[i].unbind(0)
            feats = torch.stack([torch.log1p(gap) / 5, dist / 1000, new_dev])
            risks.append(torch.sigmoid(self.risk(feats))[0])
            if lock_left > 0:
                lock_left = torch.clamp(lock_left - gap, min=0.0)
                decisions.append(torch.tensor(BLOCK))
                continue
            if ok > 0.5:
                fails = torch.zeros(())
                speed = dist / (gap / 3600 + 1e-3)
                if speed > self.max_speed_kmh or (self.strict and new_dev > 0.5):
                    decision = CHALLENGE
                else:
                    decision = ALLOW
            else:
                fails = fails + 1
                decision = ALLOW
                if fails >= self.max_fails:
                    lock_left = torch.full((), self.lockout_s)
                    fails = torch.zeros(())
                    decision = BLOCK
            decisions.append(torch.tensor(decision))
        return torch.stack(decisions), torch.stack(risks)


def model():
    return LoginLockoutMonitor().eval()


def _log(rows):
    return torch.tensor(rows, dtype=torch.float32)


def example_inputs():
    return (_log([[0, 3600, 0, 0], [1, 20, 0, 0], [1, 7200, 5, 0], [1, 1800, 2500, 1]]),)


def dynamic_shapes():
    return ({0: Dim("attempts", min=2, max=64)},)


def _brute_force(n):
    """A password-guessing bot: failures every 7 s from the same place."""
    rows = [[0, 7.0, 0, 1]] * n
    rows[-1] = [1, 7.0, 0, 1]
    return _log(rows)


def verify_inputs():
    return [
        example_inputs(),                     # fail, ok, ok, then 2500 km in 30 min -> challenge
        (_log([[1, 600, 1, 0], [1, 900, 3, 1]]),),   # min length, normal logins -> allow (new device ok, not strict)
        (_brute_force(12),),                  # 5 fails -> lockout, attempts inside the lockout blocked (continue)
        (_log([[0, 10, 0, 0]] * 5 + [[0, 100, 0, 0], [0, 150, 0, 0], [1, 90, 0, 0], [1, 60, 0, 0]]),),
                                              # lockout expires after 340 s -> next login allowed again
        (_brute_force(64),),                  # max length: repeated lockouts
    ]
