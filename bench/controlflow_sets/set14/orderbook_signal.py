"""Order-book trading signal: an MLP scores each tick (plus the book imbalance), then a
position state machine walks the ticks: enter on a strong signal with a tight spread,
exit on stop-loss or signal flip, then sit out a cooldown."""

import torch
from torch import nn

MAX_SPREAD = 0.002
STOP_LOSS = -0.01
COOLDOWN = 2


class BookSignal(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, book: torch.Tensor):
        # book: (T, 10) = bid px, ask px, bid vol, ask vol, 6 microstructure features
        bid, ask, bid_v, ask_v = book[:, 0], book[:, 1], book[:, 2], book[:, 3]
        mid = 0.5 * (bid + ask)
        spread = (ask - bid) / mid
        imbalance = (bid_v - ask_v) / (bid_v + ask_v)
        alpha = torch.tanh(0.1 * self.net(book[:, 4:]).squeeze(-1) + 2.0 * imbalance)

        pos = torch.zeros((), dtype=torch.long)
        entry = torch.ones(())
        pnl = torch.zeros(())
        cooldown = 0
        positions = []
        for t in range(book.shape[0]):
            if cooldown > 0:
                cooldown -= 1
                positions.append(pos)
                continue
            if pos == 0:
                if alpha[t] > 0.6 and spread[t] < MAX_SPREAD:
                    pos = torch.ones((), dtype=torch.long)
                    entry = ask[t]
                elif alpha[t] < -0.6 and spread[t] < MAX_SPREAD:
                    pos = -torch.ones((), dtype=torch.long)
                    entry = bid[t]
            else:
                ret = pos * (mid[t] - entry) / entry
                if ret < STOP_LOSS or pos * alpha[t] < 0:
                    pnl = pnl + ret
                    pos = torch.zeros((), dtype=torch.long)
                    cooldown = COOLDOWN
            positions.append(pos)
        return torch.stack(positions), pnl, alpha


def model() -> nn.Module:
    torch.manual_seed(0)
    return BookSignal().eval()


def _book(imb, mids, spread_bp, seed):
    """imb: per-tick imbalance in [-1, 1]; mids: per-tick mid price; spread in basis points."""
    T = len(imb)
    g = torch.Generator().manual_seed(seed)
    imb = torch.tensor(imb, dtype=torch.float32)
    mid = torch.tensor(mids, dtype=torch.float32)
    half = mid * torch.tensor(spread_bp, dtype=torch.float32) * 1e-4 / 2
    book = torch.zeros(T, 10)
    book[:, 0], book[:, 1] = mid - half, mid + half
    book[:, 2], book[:, 3] = 100 * (1 + imb), 100 * (1 - imb)
    book[:, 4:] = torch.randn(T, 6, generator=g)
    return (book,)


def example_inputs() -> tuple:
    # long entry, signal flip exit, cooldown, short entry, held to the end
    imb = [0.0, 0.5, 0.2, -0.5, -0.5, -0.5, -0.5, -0.4]
    mids = [100.0, 100.0, 100.1, 100.2, 100.2, 100.1, 100.0, 99.9]
    return _book(imb, mids, [5] * 8, 0)


def dynamic_shapes():
    return ({0: torch.export.Dim("ticks", min=4, max=128)},)


def verify_inputs() -> list:
    return [
        # strong buy signal but wide spread (no entry), then entry, then stop-loss
        _book([0.5, 0.5, 0.5, 0.4, 0.4, 0.4], [100.0, 100.0, 100.0, 99.5, 98.5, 98.0], [40, 40, 5, 5, 5, 5], 1),
        # flat market, never trades
        _book([0.0, 0.1, -0.1, 0.0], [50.0, 50.0, 50.0, 50.0], [3, 3, 3, 3], 2),
        # short with wide spread, short entry, stop loss up, cooldown, long entry
        _book([-0.5, -0.5, -0.5, -0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5],
              [10.0, 10.0, 10.0, 10.2, 10.3, 10.3, 10.3, 10.3, 10.35, 10.4],
              [30, 10, 10, 10, 10, 10, 10, 10, 10, 10], 3),
        # long random walk
        _book([0.5 * ((i // 9) % 3 - 1) for i in range(128)],
              [100.0 + 0.05 * ((i * 7) % 11) for i in range(128)], [5] * 128, 4),
    ]
