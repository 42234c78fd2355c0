"""Coin handling of a vending machine.

Each inserted coin is weighed and matched to the nearest denomination; coins
outside the mass tolerance are rejected. If the credit covers the price, the
change is paid greedily from the coin tubes (largest denomination first,
limited by tube stock); when exact change is impossible the sale is
cancelled and the credit refunded.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

# euro coins: value in cents, nominal mass in grams
VALUES = [200, 100, 50, 20, 10, 5]
MASSES = [8.50, 7.50, 7.80, 5.74, 4.10, 3.92]


class VendingChangeDispenser(nn.Module):
    def __init__(self, tolerance_g=0.08):
        super().__init__()
        self.tolerance_g = tolerance_g
        self.register_buffer("values", torch.tensor(VALUES, dtype=torch.int64))
        self.register_buffer("nominal_g", torch.tensor(MASSES))
        self.scale_drift = nn.Linear(1, 1)  # learned load-cell drift compensation

    def forward(self, coin_masses, price, tube_stock):
        # coin_masses: [M] grams; price: int64 scalar (cents); tube_stock: [6] int64
        credit = torch.zeros((), dtype=torch.int64)
        accepted = torch.zeros_like(tube_stock)
        for i in range(coin_masses.shape[0]):
            m = coin_masses[i]
            m = m + 0.01 * torch.tanh(self.scale_drift(m.reshape(1) / 10.0)).squeeze(0)
            diff = (m - self.nominal_g).abs()
            k = diff.argmin()
            if diff[k] > self.tolerance_g:
                continue  # rejected to the return slot
            credit = credit + self.values[k]
            accepted = accepted + F.one_hot(k, len(VALUES))
        if credit < price:
            return torch.tensor(False), torch.zeros_like(tube_stock), credit  # not enough credit
        stock = tube_stock + accepted
        change = credit - price
        paid = []
        for k in range(len(VALUES)):
            coin = self.values[k]
            n_k = torch.zeros((), dtype=torch.int64)
            while change >= coin and stock[k] > n_k:
                change = change - coin
                n_k = n_k + 1
            paid.append(n_k)
        paid = torch.stack(paid)
        if change > 0:
            return torch.tensor(False), torch.zeros_like(tube_stock), credit  # no exact change
        return torch.tensor(True), paid, torch.zeros((), dtype=torch.int64)


def model():
    torch.manual_seed(0)
    return VendingChangeDispenser().eval()


def _coins(denoms, price, stock, seed, fakes=()):
    g = torch.Generator().manual_seed(seed)
    masses = [MASSES[VALUES.index(d)] for d in denoms] + list(fakes)
    masses = torch.tensor(masses) + 0.03 * (2.0 * torch.rand(len(masses), generator=g) - 1.0)
    return masses, torch.tensor(price, dtype=torch.int64), torch.tensor(stock, dtype=torch.int64)


def example_inputs():
    return _coins([100, 50, 20], 150, [5, 5, 5, 5, 5, 5], 0)


def dynamic_shapes():
    M = torch.export.Dim("coins", min=2, max=64)
    return ({0: M}, None, None)


def verify_inputs():
    return [
        _coins([200, 100], 165, [3, 3, 3, 3, 3, 3], 1, fakes=[6.60]),   # a slug is rejected, change 1x100+1x20+1x10+1x5
        _coins([50, 20], 150, [3, 3, 3, 3, 3, 3], 2),                   # not enough credit
        _coins([200, 200], 90, [2, 2, 2, 0, 0, 0], 3),                  # no small coins: refund
        _coins([50, 50, 20, 10], 130, [0, 0, 0, 0, 0, 0], 4),           # exact amount, no change
        _coins([200, 200, 200], 195, [0, 0, 1, 4, 4, 4], 5),            # change 4.05: two of the inserted 2-euro coins go back
    ]
