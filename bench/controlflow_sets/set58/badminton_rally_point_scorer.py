"""Badminton umpire scoring (BWF rally-point system) with a learned momentum tracker.

rally_winner[r] > 0 means side A won rally r, otherwise side B. rally_stats[r] holds
(shots in the rally, smashes, mean shuttle speed km/h / 100). Games go to 21, win by two,
capped at 30; the first to two games wins the match and later rallies are ignored.
Outputs: games won per side, per-game scores (3 x 2, zero for unplayed games), server
after every rally (-1 after the match ended), mid-game intervals taken, momentum state.
"""
import torch
import torch.nn as nn


class MomentumTracker(nn.Module):
    def __init__(self, long_rally=20.0):
        super().__init__()
        self.cell = nn.GRUCell(3, 4)
        self.long_rally = long_rally

    def forward(self, stats, h):
        h_new = self.cell((stats / torch.tensor([30.0, 5.0, 1.0])).unsqueeze(0), h.unsqueeze(0))[0]
        if stats[0] > self.long_rally:
            return torch.tanh(2.0 * h_new)  # long rallies swing momentum harder
        return h_new


def game_winner(a, b, target=21, cap=30):
    if a == cap or (a >= target and a - b >= 2):
        return 0
    if b == cap or (b >= target and b - a >= 2):
        return 1
    return -1


class BadmintonScorer(nn.Module):
    def __init__(self, games_to_win=2, interval_at=11):
        super().__init__()
        self.momentum = MomentumTracker()
        self.games_to_win = games_to_win
        self.interval_at = interval_at

    def forward(self, rally_winner, rally_stats):
        n = rally_winner.shape[0]
        games = [0, 0]
        a = torch.zeros((), dtype=torch.long)
        b = torch.zeros((), dtype=torch.long)
        h = torch.zeros(4)
        game_scores, servers = [], []
        intervals = 0
        for r in range(n):
            h = self.momentum(rally_stats[r], h)
            if rally_winner[r] > 0:
                a = a + 1
                server = 0  # rally winner serves next
            else:
                b = b + 1
                server = 1
            servers.append(torch.tensor(server))
            if (a == self.interval_at and b < self.interval_at) or \
                    (b == self.interval_at and a < self.interval_at):
                intervals += 1  # first side to 11: 60 s interval
            w = game_winner(a, b)
            if w < 0:
                continue
            games[w] += 1
            game_scores.append(torch.stack([a, b]))
            a = torch.zeros((), dtype=torch.long)
            b = torch.zeros((), dtype=torch.long)
            if games[w] == self.games_to_win:
                break  # match over
        trace = torch.stack(servers)
        if trace.shape[0] < n:
            trace = torch.cat([trace, torch.full((n - trace.shape[0],), -1)])
        while len(game_scores) < 3:
            game_scores.append(torch.zeros(2, dtype=torch.long))
        return torch.tensor(games), torch.stack(game_scores), trace, torch.tensor(intervals), h


def model():
    torch.manual_seed(5814)
    return BadmintonScorer().eval()


def _match(pattern, seed):
    """pattern: string of 'A'/'B' rally winners."""
    g = torch.Generator().manual_seed(seed)
    n = len(pattern)
    winner = torch.tensor([1.0 if ch == "A" else -1.0 for ch in pattern])
    shots = torch.randint(1, 30, (n,), generator=g).float()
    stats = torch.stack([shots, torch.randint(0, 4, (n,), generator=g).float(),
                         2.0 + torch.rand(n, generator=g)], dim=1)
    return winner, stats


def example_inputs():
    # A wins 21-15 then 21-18
    return _match("AB" * 15 + "A" * 6 + "AB" * 18 + "A" * 3, seed=1)


def dynamic_shapes():
    r = torch.export.Dim("rallies", min=2, max=150)
    return ({0: r}, {0: r})


def verify_inputs():
    deuce = "AB" * 20 + "AA"  # 20-20, then A wins 22-20
    cap = "AB" * 29 + "B"  # 29-29, B takes the golden point 30-29
    return [
        # straight games for A, intervals at 11 in both games, match ends on the last rally
        example_inputs(),
        # 150 rallies: 22-20 A, 29-30 B, decider 21-0 A -> match over, the rest ignored (-1)
        _match(deuce + cap + "A" * 21 + "B" * (150 - 42 - 59 - 21), seed=2),
        # 2 rallies: match barely started
        _match("BA", seed=3),
        # A takes the golden point at 29-29: 30-29
        _match("AB" * 29 + "A", seed=5),
        # A reaches 11 first (interval); B's 11 at 11-11 is no second one; unfinished at 14-13
        _match("AB" * 13 + "A", seed=4),
    ]
