"""Moderation of a discussion thread on a social platform.

Every comment is scored for toxicity by a wide & deep scorer; the thread is then sent
to a human moderator (code 2), put in slow mode (code 1) or left alone (code 0) by
rules over the scores, the number of user reports and streaks of consecutive toxic
comments (a pile-on).
"""
import torch
import torch.nn as nn

# feature columns: log10(1 + reports), caps ratio, link density, lexicon toxicity, account age (z), reply rate
REPORTS = 0


class ToxicityScorer(nn.Module):
    def __init__(self, n_feat=6, hidden=16, train_noise=0.05):
        super().__init__()
        self.train_noise = train_noise
        # wide & deep: a logistic-regression part plus an MLP
        self.wide = nn.Linear(n_feat, 1)
        self.mlp = nn.Sequential(nn.Linear(n_feat, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, comments):
        if self.training:
            comments = comments + self.train_noise * torch.randn_like(comments)
        return torch.sigmoid((self.wide(comments) + self.mlp(comments)).squeeze(-1))


def longest_toxic_streak(scores, thr):
    best = 0
    run = 0
    for i in range(scores.shape[0]):
        if scores[i] > thr:
            run += 1
            best = max(best, run)
        else:
            run = 0
    return best


class ThreadModerator(nn.Module):
    def __init__(self):
        super().__init__()
        self.scorer = ToxicityScorer()
        self.review_score = 0.95
        self.pile_on_len = 3

    def forward(self, comments, report_limit):
        scores = self.scorer(comments)
        reports = (torch.pow(10.0, comments[:, REPORTS]) - 1.0).sum()
        if (scores > self.review_score).any() or reports > report_limit[0]:
            return torch.tensor([2]), scores
        if scores.mean() > 0.5 and comments.shape[0] >= 5:
            decision = 1
        elif longest_toxic_streak(scores, 0.5) >= self.pile_on_len:
            decision = 1
        else:
            decision = 0
        return torch.tensor([decision]), scores


def model():
    torch.manual_seed(0)
    m = ThreadModerator().eval()
    with torch.no_grad():
        # the wide part starts from a hand-calibrated rule: lexicon toxicity and reply rate dominate
        m.scorer.wide.weight.copy_(torch.tensor([[0.2, 0.0, 0.0, 1.2, 0.1, 0.8]]))
        m.scorer.wide.bias.fill_(-0.5)
    return m


def _thread(g, n, tox, reports_log=0.1):
    x = torch.randn(n, 6, generator=g) * 0.3
    x[:, REPORTS] = reports_log + 0.3 * torch.rand(n, generator=g)
    x[:, 3] = torch.tensor(tox)
    x[:, 5] = torch.tensor(tox)
    return x


def example_inputs():
    g = torch.Generator().manual_seed(1)
    return _thread(g, 6, [-1.0, 0.0, 1.0, -1.0, 0.5, 0.0]), torch.tensor([40.0])


def dynamic_shapes():
    return ({0: torch.export.Dim("comments", min=2, max=256)}, None)


def verify_inputs():
    g = torch.Generator().manual_seed(2)
    lim = torch.tensor([40.0])
    return [
        (_thread(g, 4, [-1.0, -1.0, -1.0, -1.0]), lim),                                   # civil thread
        (_thread(g, 4, [-1.0, -1.0, -1.0, -1.0], reports_log=1.3), lim),                  # heavily reported
        (_thread(g, 5, [-1.0, 8.0, -1.0, -1.0, -1.0]), lim),                              # one clearly abusive comment
        (_thread(g, 6, [1.2, 1.2, 1.2, 1.2, -1.0, 1.2]), lim),                            # mostly toxic, long enough
        (_thread(g, 4, [1.2, 1.2, 1.2, 1.2]), lim),                                       # too short for the mean rule: streak
        (_thread(g, 10, [-1.0, 1.2, 1.2, -2.0, -2.0, 1.2, 1.2, 1.2, -2.0, -2.0]), lim),  # pile-on of three
        (_thread(g, 3, [1.2, -2.0, 1.2]), lim),                                           # heated but no streak
    ]
