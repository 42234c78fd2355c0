"""Multi-product pipeline: hour-by-hour batch cycle simulation.

A products pipeline ships a queue of batches (product code, volume m3, due hour)
back to back.  Batches go in order of due hour.  Where two different products
meet, an interface of mixed product (transmix) has to be cut out at the
terminal, which adds volume to the following batch.  The dispatcher simulates
the pump schedule hour by hour at the current rate to get each batch's delivery
time, the transmix volume and the late batches; a small network estimates the
pumping power per product for the energy bill.
"""
import torch
import torch.nn as nn

GASOLINE, DIESEL, JET, HEATING_OIL = 0, 1, 2, 3


class PumpPowerModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, density, viscosity, rate):
        x = torch.stack([density / 1000.0, viscosity / 5.0, rate / 1000.0], dim=-1)
        return 400.0 + 100.0 * torch.sigmoid(self.net(x)).squeeze(-1)    # kW


class PipelineBatchScheduler(nn.Module):
    def __init__(self):
        super().__init__()
        self.power = PumpPowerModel()
        # density kg/m3, viscosity cSt per product
        self.register_buffer("props", torch.tensor([[740.0, 0.6], [840.0, 3.5], [800.0, 1.5], [860.0, 4.0]]))
        # transmix m3 when product (row) is followed by product (col)
        self.register_buffer("interface", torch.tensor([
            [0.0, 60.0, 45.0, 80.0],
            [60.0, 0.0, 40.0, 20.0],
            [45.0, 40.0, 0.0, 50.0],
            [80.0, 20.0, 50.0, 0.0]]))

    def forward(self, batches, line):
        # batches: (Q, 3) product, volume m3, due hour; line: (2,) rate m3/h, product in the line
        rate = line[0]
        order = torch.argsort(batches[:, 2], stable=True)
        queue = batches[order]
        products = queue[:, 0].long()
        n = queue.shape[0]

        first_iface = self.interface[line[1].long(), products[0]]
        total = queue[:, 1].sum() + first_iface + self.interface[products[:-1], products[1:]].sum()
        hours = int(torch.ceil(total / rate).item()) + 1

        idx = 0
        remaining = queue[0, 1] + first_iface
        transmix = first_iface
        finish = []
        for h in range(hours):
            capacity = rate.clone()
            while capacity > 0 and idx < n:
                take = torch.minimum(capacity, remaining)
                capacity = capacity - take
                remaining = remaining - take
                if remaining <= 0:
                    finish.append(h + 1 - capacity / rate)
                    idx += 1
                    if idx < n:
                        iface = self.interface[products[idx - 1], products[idx]]
                        if iface > 0:
                            transmix = transmix + iface
                        remaining = queue[idx, 1] + iface
            if idx >= n:
                break

        done = torch.stack(finish)
        late = (done > queue[:, 2]).sum()
        durations = torch.cat([done[:1], done[1:] - done[:-1]])
        kw = self.power(self.props[products, 0], self.props[products, 1], rate.expand(n))
        energy_mwh = (kw * durations).sum() / 1000.0
        delivered = torch.empty_like(done)
        delivered[order] = done
        return delivered, transmix.reshape(1), late, energy_mwh.reshape(1)


def model():
    torch.manual_seed(5618)
    return PipelineBatchScheduler().eval()


def _queue(n, seed, vol_lo=800.0, vol_hi=6000.0, slack=1.2):
    g = torch.Generator().manual_seed(seed)
    prod = torch.randint(0, 4, (n,), generator=g).float()
    vol = vol_lo + (vol_hi - vol_lo) * torch.rand(n, generator=g)
    due = torch.cumsum(vol, 0) / 800.0 * slack
    due = due[torch.randperm(n, generator=g)]
    return torch.stack([prod, vol, due], dim=1)


def example_inputs():
    return (_queue(8, 1), torch.tensor([800.0, float(DIESEL)]))


def dynamic_shapes():
    q = torch.export.Dim("batches", min=2, max=32)
    return ({0: q}, None)


def verify_inputs():
    same = torch.tensor([[DIESEL, 1200.0, 2.0], [DIESEL, 900.0, 4.0]])
    small = _queue(6, 3, vol_lo=100.0, vol_hi=300.0, slack=3.0)
    return [
        # 8 mixed batches reordered by due hour, several interfaces, some late
        example_inputs(),
        # min 2 diesel batches behind diesel in the line: no interface at all, both on time
        (same, torch.tensor([900.0, float(DIESEL)])),
        # max 32 batches, ~230 simulated hours
        (_queue(32, 2), torch.tensor([800.0, float(GASOLINE)])),
        # 6 small batches at 1000 m3/h: several batches finish within one hour
        (small, torch.tensor([1000.0, float(JET)])),
    ]
