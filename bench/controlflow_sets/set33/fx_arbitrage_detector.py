"""Triangular / multi-leg FX arbitrage detection with Bellman-Ford.

rates: [n, n] quoted conversion rates, rates[i, j] = units of currency j per unit
of currency i (n currencies, dynamic).  Edge weights are -log(rate) plus a
per-leg fee; a negative cycle is a profitable loop.  Relaxation runs while
something improves (at most n rounds); if the n-th round still improves, the
predecessor chain is walked back to recover the cycle, and a small learned
model scores how executable it is.
Returns (profit, execution score, cycle membership [n], distances [n]).
"""
import torch
import torch.nn as nn
from torch.export import Dim


class ArbitrageDetector(nn.Module):
    def __init__(self, fee=5e-4, eps=1e-7):
        super().__init__()
        self.fee = fee
        self.eps = eps
        self.scorer = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))

    def find_cycle(self, pred, start, n):
        v = start
        for _ in range(n):  # step back n times to be sure we are on the cycle
            v = int(pred[v])
        cycle = [v]
        u = int(pred[v])
        while u != v:
            cycle.append(u)
            u = int(pred[u])
        return cycle

    def forward(self, rates):
        n = rates.shape[0]
        w = -torch.log(rates) + self.fee
        w = w + torch.diag(torch.full((n,), 1e3))  # no self loops
        dist = torch.zeros(n)  # virtual source connected to every currency
        pred = torch.arange(n)
        changed = torch.tensor(True)
        rounds = 0
        while changed and rounds < n:
            cand, best_u = (dist.unsqueeze(1) + w).min(dim=0)
            improved = cand < dist - self.eps
            dist = torch.where(improved, cand, dist)
            pred = torch.where(improved, best_u, pred)
            changed = improved.any()
            rounds += 1

        if not changed:
            return torch.zeros(()), torch.zeros(()), torch.zeros(n), dist

        start = int(improved.nonzero()[0, 0])
        cycle = self.find_cycle(pred, start, n)
        member = torch.zeros(n)
        log_gain = torch.zeros(())
        for i in range(len(cycle)):
            a, b = cycle[(i + 1) % len(cycle)], cycle[i]  # pred[b] == a: edge a -> b
            log_gain = log_gain - w[a, b]
            member[b] = 1.0
        profit = torch.expm1(log_gain)
        spread = (rates * rates.T).mean()
        score = torch.sigmoid(self.scorer(torch.stack([profit * 100, torch.tensor(float(len(cycle))), spread])))
        return profit, score.squeeze(-1), member, dist


def model():
    torch.manual_seed(17)
    return ArbitrageDetector().eval()


def _market(n, seed, spread=2e-3, mispriced=None, cross=None):
    g = torch.Generator().manual_seed(seed)
    value = torch.rand(n, generator=g) * 3 - 1.5  # log value of each currency in USD
    pair_spread = spread * (0.5 + 1.5 * torch.rand(n, n, generator=g))  # every pair quotes its own spread
    rates = torch.exp(value.unsqueeze(1) - value.unsqueeze(0)) * (1 - pair_spread)
    rates.fill_diagonal_(1.0)
    if mispriced is not None:
        i, j, bump = mispriced
        rates[i, j] = rates[i, j] * (1 + bump)
    if cross is not None:  # a whole currency pair quoted off-market, both sides consistent
        i, j, bump = cross
        rates[i, j] = rates[i, j] * (1 + bump)
        rates[j, i] = rates[j, i] / (1 + bump)
    return rates


def example_inputs():
    return (_market(6, 1, mispriced=(1, 4, 0.012)),)


def dynamic_shapes():
    n = Dim("currencies", min=2, max=32)
    return ({0: n, 1: n},)


def verify_inputs():
    return [
        example_inputs(),                         # one quote 1.2% too rich: 2-leg arbitrage found, cycle walked back
        (_market(8, 2),),                         # consistent quotes: relaxation settles, no arbitrage (early return)
        (_market(5, 3, mispriced=(0, 3, 0.0015)),),  # mispricing smaller than spread + fees: no arbitrage
        (torch.tensor([[1.0, 0.99], [0.99, 1.0]]),),  # two near-pegged currencies: nothing improves in round 1
        (_market(7, 4, mispriced=(2, 5, 0.05)),),  # large mispricing on a 7-currency book: arbitrage
        (_market(6, 5, cross=(0, 2, 0.015)),),     # off-market cross rate: no 2-leg profit, longer cycle walked back
    ]
