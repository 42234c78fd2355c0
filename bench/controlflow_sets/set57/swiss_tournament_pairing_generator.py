"""Next-round pairings for a Swiss-system chess tournament.

Players are ranked by score, then rating.  With an odd number of players
the lowest-ranked player who has not had a bye yet gets it.  Going down the
ranking, each unpaired player meets the highest-ranked unpaired player
below them whom they have not played yet; if there is none, the nearest
unpaired player is taken anyway (a rematch, flagged for the arbiter).
Colours go to balance each player's white/black history, and a small model
predicts the expected score of white on every board for the broadcast.
"""
import torch
import torch.nn as nn


def first_unpaired(order, paired, start):
    # an even number of players is still unpaired here, so there always is one
    for b in range(start, order.shape[0]):
        if not paired[order[b]]:
            return b


class SwissPairing(nn.Module):
    def __init__(self):
        super().__init__()
        # [rating difference / 400, score difference, colour balance difference] -> white's expected score
        self.board_net = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1), nn.Sigmoid())

    def pick_bye(self, order, had_bye):
        for r in range(order.shape[0] - 1, -1, -1):
            if had_bye[order[r]] == 0:
                return order[r]
        else:
            # everybody already had one: the last-ranked player gets a second bye
            return order[-1]

    def forward(self, scores, ratings, played, colour_balance, had_bye):
        # scores, ratings, colour_balance (whites - blacks), had_bye: (n_players,); played: (n_players, n_players)
        n = scores.shape[0]
        order = torch.argsort(scores * 10000.0 + ratings, descending=True)  # ratings are distinct, < 10000
        paired = torch.zeros(n, dtype=torch.bool)
        bye = torch.tensor(-1)
        if n % 2 == 1:
            bye = self.pick_bye(order, had_bye)
            paired[bye] = True

        boards = []
        rematches = torch.zeros((), dtype=torch.long)
        for a in range(n):
            p = order[a]
            if paired[p]:
                continue
            for b in range(a + 1, n):
                q = order[b]
                if paired[q] or played[p, q] > 0:
                    continue
                break
            else:
                b = first_unpaired(order, paired, a + 1)
                q = order[b]
                rematches += 1
            paired[p] = True
            paired[q] = True
            if colour_balance[p] > colour_balance[q]:
                boards.append(torch.stack([q, p]))
            else:
                boards.append(torch.stack([p, q]))

        boards = torch.stack(boards)
        w, k = boards[:, 0], boards[:, 1]
        feats = torch.stack([(ratings[w] - ratings[k]) / 400.0, scores[w] - scores[k],
                             colour_balance[w] - colour_balance[k]], dim=1)
        expected_white = self.board_net(feats).squeeze(-1)
        return boards, expected_white, bye, rematches


def model():
    torch.manual_seed(5716)
    return SwissPairing().eval()


N_PLAYERS = torch.export.Dim("n_players", min=2, max=64)


def _field(n, seed, rounds_played=0):
    g = torch.Generator().manual_seed(seed)
    ratings = 1400.0 + torch.randperm(1200, generator=g)[:n].float()
    scores = torch.zeros(n)
    played = torch.zeros(n, n)
    balance = torch.zeros(n)
    for _ in range(rounds_played):
        perm = torch.randperm(n, generator=g)
        for i in range(0, n - 1, 2):
            a, b = perm[i], perm[i + 1]
            played[a, b] = played[b, a] = 1.0
            balance[a] += 1.0
            balance[b] -= 1.0
            scores[a] += float(torch.randint(0, 3, (1,), generator=g)) / 2.0
            scores[b] += 0.5
    return scores, ratings, played, balance


def example_inputs():
    # 9 players after two rounds; two of them already had their bye
    scores, ratings, played, balance = _field(9, 1, rounds_played=2)
    had_bye = torch.zeros(9)
    had_bye[torch.argsort(scores * 10000.0 + ratings)[:2]] = 1.0
    return (scores, ratings, played, balance, had_bye)


def dynamic_shapes():
    d = {0: N_PLAYERS}
    return (d, d, {0: N_PLAYERS, 1: N_PLAYERS}, d, d)


def verify_inputs():
    s64, r64, p64, b64 = _field(64, 3)
    s3, r3, p3, b3 = _field(3, 4, rounds_played=1)
    s6, r6, _, b6 = _field(6, 5)
    # the three leaders have all played each other and everybody below -> no legal opponent for #3
    top = torch.argsort(s6 * 10000.0 + r6, descending=True)
    p6 = torch.zeros(6, 6)
    for i in range(3):
        for j in range(6):
            if i != j and not (i == 0 and j >= 3) and not (i == 1 and j >= 3):
                p6[top[i], top[j]] = p6[top[j], top[i]] = 1.0
    return [
        # odd field: bye to lowest-ranked without one (skipping two), pairs skip earlier opponents
        example_inputs(),
        # 2 players who already met -> inner loop finds nobody, for/else rematch
        (torch.tensor([1.0, 1.0]), torch.tensor([1800.0, 1750.0]), torch.tensor([[0.0, 1.0], [1.0, 0.0]]),
         torch.tensor([1.0, -1.0]), torch.zeros(2)),
        # 64 players, round 1: even field, top half of the ranking meets next in line, no skips
        (s64, r64, p64, b64, torch.zeros(64)),
        # 3 players, everybody already had a bye -> pick_bye's for/else, last-ranked gets a second one
        (s3, r3, p3, b3, torch.ones(3)),
        # 6 players: third-ranked has met everybody still unpaired -> rematch via for/else
        (s6, r6, p6, b6, torch.zeros(6)),
    ]
