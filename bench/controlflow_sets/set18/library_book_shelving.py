"""Library returns robot: predicts each returned book's thickness, then first-fit assigns books to
shelves with remaining space (nested loops, early break on the first shelf that fits)."""
import torch
from torch import nn

SHELVES = 4


def first_fit(width, free):
    # returns (shelf index or -1, updated free space); early exit in the helper
    for s in range(SHELVES):
        if width <= free[s]:
            free = free.clone()
            free[s] = free[s] - width
            return torch.tensor(s), free
    return torch.tensor(-1), free


class Shelver(nn.Module):
    def __init__(self):
        super().__init__()
        self.width = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, books, free):
        # books: (N, 5) features (first = spine width cm); free: (SHELVES,) cm left per shelf
        widths = books[:, 0] + 0.1 * torch.sigmoid(self.width(books).squeeze(-1))
        slots = []
        overflow = []
        for i in range(books.shape[0]):
            slot, free = first_fit(widths[i], free)
            if slot < 0:
                overflow.append(widths[i])
            slots.append(slot)
        spill = torch.stack(overflow).sum() if len(overflow) > 0 else torch.zeros(())
        return torch.stack(slots), free, spill


def model():
    torch.manual_seed(0)
    return Shelver().eval()


def _books(ws):
    b = torch.zeros(len(ws), 5)
    b[:, 0] = torch.tensor(ws)
    return b


def example_inputs():
    return (_books([3.0, 5.0, 2.0, 9.0, 4.0]), torch.tensor([6.0, 10.0, 4.0, 20.0]))


def dynamic_shapes():
    return ({0: torch.export.Dim("books", min=2, max=200)}, None)


def verify_inputs():
    return [
        (_books([8.0, 8.0, 8.0]), torch.tensor([5.0, 5.0, 5.0, 10.0])),   # last two overflow
        (_books([1.0, 1.5]), torch.tensor([30.0, 30.0, 30.0, 30.0])),
    ]
