"""Exchange matching engine: run a batch of incoming limit / IOC orders against a price-time
priority order book (integer ticks and lots), with a per-batch trade-count kill switch.

Kind X. Constructs: 1 2 3 4 5 6 7 9
"""
import torch
import torch.nn as nn

BUY, SELL = 1, -1
LIMIT, IOC = 0, 1


class MatchingEngine(nn.Module):
    def __init__(self, max_trades=12):
        super().__init__()
        # resting book at the open: rows of (price tick, lots), best level first
        self.register_buffer("open_asks", torch.tensor([[101, 5], [102, 10], [104, 20]]))
        self.register_buffer("open_bids", torch.tensor([[99, 5], [98, 10], [96, 20]]))
        self.max_trades = max_trades

    def crosses(self, side, limit, level_price):
        if side == BUY:
            return limit >= level_price
        return limit <= level_price

    def better(self, side, price, other):
        # strictly better price for a resting order on `side`
        if side == BUY:
            return price > other
        return price < other

    def match(self, side, limit, qty, opposite, trades):
        filled = torch.zeros((), dtype=torch.long)
        notional = torch.zeros((), dtype=torch.long)
        while qty > 0 and len(opposite) > 0 and self.crosses(side, limit, opposite[0][0]):
            price, avail = opposite[0][0], opposite[0][1]
            take = torch.minimum(qty, avail)
            filled = filled + take
            notional = notional + take * price
            qty = qty - take
            trades.append(torch.stack([price, take]))
            if avail - take == 0:
                opposite.pop(0)             # level exhausted
            else:
                opposite[0] = torch.stack([price, avail - take])
            if len(trades) >= self.max_trades:
                break
        return filled, notional, qty

    def rest(self, side, price, qty, own):
        for i in range(len(own)):
            if self.better(side, price, own[i][0]):
                own.insert(i, torch.stack([price, qty]))
                return
            if own[i][0] == price:
                own[i] = torch.stack([price, own[i][1] + qty])   # join the level (time priority)
                return
        own.append(torch.stack([price, qty]))

    def forward(self, orders):
        asks = [row for row in self.open_asks]
        bids = [row for row in self.open_bids]
        trades = []
        fills, avg_px = [], []
        for k in range(orders.shape[0]):
            side, limit, qty, kind = orders[k, 0], orders[k, 1], orders[k, 2], orders[k, 3]
            if qty <= 0 or not (side == BUY or side == SELL):
                fills.append(torch.zeros((), dtype=torch.long))
                avg_px.append(torch.zeros(()))
                continue                    # rejected by the gateway
            if side == BUY:
                opposite, own = asks, bids
            else:
                opposite, own = bids, asks
            filled, notional, left = self.match(side, limit, qty, opposite, trades)
            fills.append(filled)
            avg_px.append(notional.float() / filled.float() if filled > 0 else torch.zeros(()))
            if left > 0 and kind == LIMIT:
                self.rest(side, limit, left, own)
            if len(trades) >= self.max_trades:
                break                       # kill switch: stop matching this batch
        n = len(fills)
        fills = torch.stack(fills)
        avg_px = torch.stack(avg_px)
        if n < orders.shape[0]:
            fills = torch.cat([fills, torch.zeros(orders.shape[0] - n, dtype=torch.long)])
            avg_px = torch.cat([avg_px, torch.zeros(orders.shape[0] - n)])
        best_bid = bids[0][0] if len(bids) > 0 else torch.tensor(-1)
        best_ask = asks[0][0] if len(asks) > 0 else torch.tensor(-1)
        return fills, avg_px, torch.stack([best_bid, best_ask]), torch.tensor(len(trades))


def model():
    torch.manual_seed(21)
    return MatchingEngine().eval()


def _make_orders(rows):
    return (torch.tensor(rows, dtype=torch.long),)


def example_inputs():
    return _make_orders([
        [BUY, 102, 8, LIMIT],     # takes 101x5 (level gone) + 102x3 (partial)
        [SELL, 99, 3, IOC],       # partial fill of the 99 bid
        [BUY, 100, 4, LIMIT],     # does not cross: rests at the front of the bids
        [SELL, 97, 12, LIMIT],    # sweeps 100 and 99, partial at 98
        [SELL, 103, 5, LIMIT],    # does not cross: rests between 102 and 104
        [BUY, 105, 40, IOC],      # empties the ask side, remainder cancelled (IOC)
        [BUY, 100, 0, LIMIT],     # zero quantity: rejected
        [SELL, 98, 4, LIMIT],     # exactly exhausts the 98 level
    ])


def dynamic_shapes():
    return ({0: torch.export.Dim("orders", min=2, max=64)},)


def verify_inputs():
    return [
        example_inputs(),   # crossing / non-crossing, partial / exhausted levels, IOC, rejection, empty ask side
        _make_orders([[SELL, 96, 1, LIMIT]] * 15),
        # ^ 15 one-lot sells: one trade each, kill switch after the 12th order, rest padded
        _make_orders([[SELL, 96, 1, LIMIT]] * 10 + [[BUY, 110, 35, LIMIT], [BUY, 101, 1, LIMIT], [SELL, 90, 2, IOC]]),
        # ^ 10 trades, then a sweep that breaks inside match at the 12th trade; its remainder rests as best bid;
        #   kill switch stops the batch, last two orders padded
        _make_orders([[SELL, 95, 35, LIMIT], [BUY, 97, 3, LIMIT], [BUY, 97, 2, LIMIT], [BUY, 90, 1, LIMIT],
                      [0, 97, 1, LIMIT], [SELL, 103, 2, LIMIT]]),
        # ^ sell sweeps every bid (empty bid book), buy rests into the empty book, second joins the 97 level,
        #   worse bid appended at the end, invalid side rejected, sell at 103 inserted between 102 and 104
    ]
