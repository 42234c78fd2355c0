"""Warehouse packing station: first-fit-decreasing assignment of parcels to shipping boxes."""
import torch
import torch.nn as nn


class BinPackingFirstFit(nn.Module):
    def __init__(self, capacity=1.0):
        super().__init__()
        self.capacity = capacity

    def forward(self, sizes):
        order = torch.argsort(sizes, descending=True)
        bins = []
        assign = []
        for k in range(sizes.shape[0]):
            size = sizes[order[k]]
            if size > self.capacity:
                assign.append(torch.tensor(-1))  # oversize parcel: ships separately
                continue
            for b in range(len(bins)):
                if bins[b] >= size:
                    bins[b] = bins[b] - size
                    assign.append(torch.tensor(b))
                    break
            else:
                bins.append(self.capacity - size)
                assign.append(torch.tensor(len(bins) - 1))
        assign_sorted = torch.stack(assign)
        assignment = assign_sorted[torch.argsort(order)]
        n_bins = torch.tensor(len(bins))
        packed = sizes.clamp(max=self.capacity).sum() - (sizes > self.capacity).to(sizes.dtype).sum()
        waste = n_bins.to(sizes.dtype) * self.capacity - packed
        return assignment, n_bins, waste


def model():
    return BinPackingFirstFit().eval()


def example_inputs():
    return (torch.tensor([0.42, 0.71, 0.18, 0.263, 0.55, 0.091, 0.334]),)


def dynamic_shapes():
    return ({0: torch.export.Dim("parcels", min=2, max=256)},)


def verify_inputs():
    return [
        (torch.tensor([0.35, 0.27]),),
        (torch.tensor([1.31, 0.58, 0.477, 0.612, 0.203, 0.146]),),
        (torch.tensor([0.83, 0.77, 0.64, 0.151, 0.092, 0.222, 0.513, 0.306, 0.409]),),
    ]
