"""DHCP server address-pool allocator.

Pool state: lease expiry time and owner client-id per address.  Each request
(client id, requested address or -1, device class) is a renewal if the client
already holds a live lease, gets its requested address if that is free, and
otherwise the first free non-reserved address; NAK (-1) if the pool is
exhausted.  Lease length per device class comes from a small learned policy.
"""
import torch
import torch.nn as nn


class LeasePolicy(nn.Module):
    def __init__(self, n_classes=4, base_lease=3600.0):
        super().__init__()
        self.base_lease = base_lease
        self.class_scale = nn.Embedding(n_classes, 1)

    def forward(self, device_class):
        return self.base_lease * (0.5 + torch.sigmoid(self.class_scale(device_class)).squeeze())


class DhcpAllocator(nn.Module):
    def __init__(self, reserved=2):
        super().__init__()
        self.reserved = reserved  # .1 gateway, .2 DNS
        self.lease_policy = LeasePolicy()

    def is_free(self, expiry, j, now):
        return j >= self.reserved and expiry[j] <= now

    def forward(self, expiry, owner, requests, now):
        expiry = expiry.clone()
        owner = owner.clone()
        pool = expiry.shape[0]
        grants = []
        for r in range(requests.shape[0]):
            client = requests[r, 0]
            want = int(requests[r, 1].item())
            lease = self.lease_policy(requests[r, 2].long())
            held = (owner == client) & (expiry > now)
            if held.any():
                # renewal (DHCPREQUEST from a bound client)
                j = int(held.int().argmax().item())
                expiry[j] = now + lease
                grants.append(torch.tensor(j))
                continue
            if 0 <= want < pool and self.is_free(expiry, want, now):
                j = want
            else:
                for j in range(pool):
                    if self.is_free(expiry, j, now):
                        break
                else:
                    grants.append(torch.tensor(-1))  # DHCPNAK: pool exhausted
                    continue
            owner[j] = client
            expiry[j] = now + lease
            grants.append(torch.tensor(j))
        return torch.stack(grants), expiry, owner


def model():
    torch.manual_seed(5117)
    return DhcpAllocator().eval()


def example_inputs():
    # 8 addresses; 2 and 5 live, 3 expired, others never used
    expiry = torch.tensor([0.0, 0.0, 5000.0, 100.0, 0.0, 9000.0, 0.0, 0.0])
    owner = torch.tensor([-1.0, -1.0, 11.0, 12.0, -1.0, 13.0, -1.0, -1.0])
    requests = torch.tensor([
        [11.0, -1.0, 0.0],  # renewal of address 2
        [20.0, 6.0, 1.0],   # asks for free address 6 -> granted
        [21.0, 5.0, 2.0],   # asks for taken address 5 -> first free (3, expired)
        [22.0, 40.0, 3.0],  # bogus requested address -> first free
    ])
    return expiry, owner, requests, torch.tensor(1000.0)


def dynamic_shapes():
    pool = torch.export.Dim("pool", min=2, max=64)
    reqs = torch.export.Dim("requests", min=2, max=32)
    return ({0: pool}, {0: pool}, {0: reqs}, None)


def verify_inputs():
    busy = torch.full((64,), 1e9)
    busy[10] = 0.0
    return [
        # example: renewal, requested address granted, fallback scan, bogus request
        example_inputs(),
        # min pool (only reserved addresses) -> every request NAKed (for/else)
        (torch.zeros(2), torch.full((2,), -1.0), torch.tensor([[1.0, -1.0, 0.0], [2.0, 0.0, 1.0]]),
         torch.tensor(10.0)),
        # max pool, max requests: pool almost full -> one grant, rest NAK
        (busy, torch.arange(64).float() + 100.0,
         torch.stack([torch.arange(32).float(), torch.full((32,), -1.0), torch.zeros(32)], dim=1),
         torch.tensor(10.0)),
    ]
