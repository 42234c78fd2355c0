"""Seat allocation for an event box office with a price-limited waitlist.

Inventory is a list of seat blocks (price, seats), cheapest first; the waitlist holds
unfilled requests (price limit, seats), most generous limit first.  Events are
processed in order: a purchase request takes seats from the cheapest blocks while
their price is within its limit, and whatever it could not get joins the waitlist
behind requests with an equal or higher limit; returned seats are first offered to
the waitlist (highest limit first, while the limit covers the price; the buyer pays
its limit) and the rest go back into inventory.  Withdrawn events (0 seats) are
skipped.  A small network then predicts the sell-through of the remaining inventory;
with an empty inventory or waitlist there is nothing to predict.
"""
import torch
import torch.nn as nn

REQUEST, RETURN = 0, 1


def affordable(block_price, price, is_request):
    return block_price <= price if is_request else block_price >= price


class TicketAllocator(nn.Module):
    def __init__(self, depth=3):
        super().__init__()
        self.depth = depth
        self.sell_through = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))

    def allocate(self, queue, price, seats, is_request):
        """queue: inventory (for a request) or waitlist (for returned seats), best first."""
        deals = []
        while seats > 0 and queue.shape[0] > 0 and affordable(int(queue[0, 0]), price, is_request):
            available = int(queue[0, 1])
            take = seats if seats < available else available
            deals.append([int(queue[0, 0]), take])
            seats -= take
            if take == available:
                queue = queue[1:]
            else:
                queue = torch.cat([torch.tensor([[int(queue[0, 0]), available - take]]), queue[1:]])
        return queue, seats, deals

    def enqueue(self, queue, price, seats, descending):
        """insert behind every entry with an equal or better price."""
        ahead = queue[:, 0] >= price if descending else queue[:, 0] <= price
        pos = int(ahead.sum())
        return torch.cat([queue[:pos], torch.tensor([[price, seats]]), queue[pos:]])

    def forward(self, events, inventory, waitlist):
        sales = []
        for i in range(events.shape[0]):
            kind, price, seats = events[i].tolist()
            if seats <= 0:
                continue
            if kind == REQUEST:
                inventory, seats, deals = self.allocate(inventory, price, seats, True)
                if seats > 0:
                    waitlist = self.enqueue(waitlist, price, seats, True)
            else:
                waitlist, seats, deals = self.allocate(waitlist, price, seats, False)
                if seats > 0:
                    inventory = self.enqueue(inventory, price, seats, False)
            for deal_price, deal_seats in deals:
                sales.append([i, deal_price, deal_seats])
        sales = torch.tensor(sales) if sales else torch.zeros(0, 3, dtype=torch.long)
        if inventory.shape[0] == 0 or waitlist.shape[0] == 0:
            return sales, inventory, waitlist, torch.zeros(1)
        supply = inventory[: self.depth, 1].sum().float()
        demand = waitlist[: self.depth, 1].sum().float()
        gap = (inventory[0, 0] - waitlist[0, 0]).float()
        feats = torch.stack([
            (demand - supply) / (demand + supply),
            torch.log1p(gap),
            torch.log1p(supply) - torch.log1p(demand),
            torch.log1p(inventory[0, 1].float()) - torch.log1p(waitlist[0, 1].float()),
        ])
        return sales, inventory, waitlist, self.sell_through(feats)


def model():
    torch.manual_seed(0)
    return TicketAllocator().eval()


def _office():
    inventory = torch.tensor([[101, 5], [102, 3], [104, 10]])   # price, seats
    waitlist = torch.tensor([[99, 4], [98, 6], [95, 2]])        # price limit, seats
    return inventory, waitlist


def example_inputs():
    inventory, waitlist = _office()
    return torch.tensor([[REQUEST, 102, 6], [RETURN, 100, 2]]), inventory, waitlist


def dynamic_shapes():
    return ({0: torch.export.Dim("events", min=2, max=1024)},
            {0: torch.export.Dim("blocks", min=2, max=1024)},
            {0: torch.export.Dim("waiting", min=2, max=1024)})


def verify_inputs():
    inventory, waitlist = _office()
    g = torch.Generator().manual_seed(3)
    n = 12
    rand = torch.stack([torch.randint(0, 2, (n,), generator=g),
                        torch.randint(96, 104, (n,), generator=g),
                        torch.randint(0, 8, (n,), generator=g)], dim=1)
    return [
        (torch.tensor([[REQUEST, 100, 3], [RETURN, 103, 2]]), inventory, waitlist),               # nothing matches
        (torch.tensor([[REQUEST, 101, 2], [RETURN, 99, 10], [REQUEST, 0, 0]]), inventory, waitlist),  # partial block; withdrawn
        (torch.tensor([[REQUEST, 110, 30], [RETURN, 120, 0]]), inventory, waitlist),              # sold out
        (torch.tensor([[RETURN, 90, 15], [REQUEST, 80, 0]]), inventory, waitlist),                # waitlist cleared
        (rand, inventory, waitlist),
    ]
