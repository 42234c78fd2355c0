"""DEX order router splitting a swap across constant-product AMM pools.

A trade of `amount_in` tokens is cut into chunks; each chunk goes to the pool
that currently gives the most output net of a learned per-pool gas estimate,
and the chosen pool's reserves are updated (x * y = k with fee). A chunk whose
price impact is too high is halved and retried; routing stops when the order is
filled, when no pool gives a positive net output, or after a maximum number of
routing steps. If the total output misses the user's minimum, the whole trade
reverts (early return).

Kind X. Constructs: 1 (if on tensor comparisons), 2 (early return on revert;
variables updated in one branch only), 3 (`and` in the while condition),
4 (while with tensor condition and loop-carried state, including in-place
updates of the reserves), 6 (break when nothing is profitable, continue after
halving the chunk), 7 (helper calling a helper; gas-model submodule).
Data-dependent number of routing steps; dynamic number of pools.
"""
import torch
import torch.nn as nn


def swap_output(reserve_in, reserve_out, amount, fee):
    amount_after_fee = amount * (1.0 - fee)
    return reserve_out * amount_after_fee / (reserve_in + amount_after_fee)


def best_pool(reserves, fees, gas, amount):
    net = swap_output(reserves[:, 0], reserves[:, 1], amount, fees) - gas
    idx = torch.argmax(net)
    return idx, net[idx]


class GasModel(nn.Module):
    def __init__(self, hidden=8):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, pools):
        feats = torch.stack([torch.log(pools[:, 0]) / 20.0, torch.log(pools[:, 1]) / 20.0, pools[:, 2] * 100.0], dim=1)
        return 0.5 + 0.5 * torch.sigmoid(self.net(feats)).squeeze(-1)  # output-token units


class OrderRouter(nn.Module):
    def __init__(self, n_chunks=8, max_steps=24, max_impact=0.03, dust=1e-3):
        super().__init__()
        self.n_chunks = n_chunks
        self.max_steps = max_steps
        self.max_impact = max_impact
        self.dust = dust
        self.gas = GasModel()

    def forward(self, pools, amount_in, min_out):
        # pools: (P, 3) [reserve of token in, reserve of token out, fee fraction]; amount_in, min_out: (1,)
        reserves = pools[:, :2].clone()
        fees = pools[:, 2]
        gas = self.gas(pools)
        total = amount_in[0]
        remaining = total.clone()
        chunk = total / self.n_chunks
        filled = torch.zeros(pools.shape[0])
        received = torch.zeros(())
        steps = 0
        while remaining > self.dust * total and steps < self.max_steps:
            steps += 1
            piece = torch.minimum(chunk, remaining)
            idx, out = best_pool(reserves, fees, gas, piece)
            if out <= 0:
                break  # gas eats the whole output everywhere
            spot = reserves[idx, 1] / reserves[idx, 0]
            impact = 1.0 - (out + gas[idx]) / (piece * spot)
            if impact > self.max_impact:
                chunk = chunk / 2.0
                continue
            reserves[idx, 0] += piece
            reserves[idx, 1] -= out + gas[idx]
            filled[idx] += piece
            received = received + out
            remaining = remaining - piece

        if received < min_out[0]:
            return torch.zeros_like(filled), torch.zeros(1), amount_in.clone()
        return filled, received.reshape(1), remaining.reshape(1)


def model():
    torch.manual_seed(3418)
    return OrderRouter().eval()


POOLS = torch.tensor([
    # reserve in (USDC), reserve out (ETH x 1000 -> "mETH"), fee
    [2.0e6, 6.10e5, 0.003],
    [5.0e5, 1.49e5, 0.0005],
    [8.0e6, 2.43e6, 0.01],
])


def example_inputs():
    # 60k USDC, min 17,000 mETH
    return (POOLS.clone(), torch.tensor([6.0e4]), torch.tensor([1.7e4]))


def dynamic_shapes():
    P = torch.export.Dim("pools", min=2, max=32)
    return ({0: P}, None, None)


def verify_inputs():
    g = torch.Generator().manual_seed(18)
    n = 10
    r_in = 1e5 + 5e6 * torch.rand(n, generator=g)
    price = 0.29 + 0.02 * torch.rand(n, generator=g)
    fee = torch.tensor([0.0005, 0.003, 0.01])[torch.randint(0, 3, (n,), generator=g)]
    many = torch.stack([r_in, r_in * price, fee], dim=1)
    thin = torch.tensor([[2.0e4, 6.0e3, 0.003], [1.5e4, 4.4e3, 0.003]])
    return [
        # chunks spread over several pools, fully filled
        example_inputs(),
        # 10 random pools, large order
        (many, torch.tensor([3.0e5]), torch.tensor([5.0e4])),
        # thin pools: high price impact -> chunk halved repeatedly (continue), step cap reached
        (thin, torch.tensor([1.2e4]), torch.tensor([100.0])),
        # same thin pools but demanding minimum output -> revert (early return)
        (thin, torch.tensor([1.2e4]), torch.tensor([3.5e3])),
        # dust-sized order: output below gas in every pool -> break at once, reverts (min 0.1)
        (POOLS[:2].clone(), torch.tensor([1.0]), torch.tensor([0.1])),
    ]
