"""Restaurant deep-fryer oil-life monitor.

From the fryer's sensor log (oil temperature, total-polar-material TPM %,
food load per basket drop) a small network estimates how fast the oil is
degrading per fry cycle. The controller then classifies the oil
(0 = ok, 1 = filter / top-up soon, 2 = discard now) and projects how many
more fry cycles remain before the 24 % TPM legal discard limit.

Kind: T.  Constructs: 1, 2, 3, 4.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class OilLifeMonitor(nn.Module):
    def __init__(self, filter_tpm=18.0, discard_tpm=24.0, smoke_guard_c=190.0):
        super().__init__()
        self.rate_net = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))
        self.filter_tpm = filter_tpm
        self.discard_tpm = discard_tpm
        self.smoke_guard_c = smoke_guard_c

    def forward(self, log):
        # log: [T, 3] = (oil temperature C, TPM %, food load kg) per basket drop
        temp, tpm, load = log[:, 0], log[:, 1], log[:, 2]
        feats = torch.stack([temp.mean() / 180.0, temp.std() / 10.0, load.mean(), tpm[-1] / 24.0])
        rate = 0.3 + 0.2 * torch.sigmoid(self.rate_net(feats)).squeeze()  # TPM % per cycle

        current = tpm[-1]
        overheated = temp.max() > self.smoke_guard_c
        if current >= self.discard_tpm or (overheated and current > self.filter_tpm):
            status = 2
        elif current > self.filter_tpm or overheated:
            status = 1
        else:
            status = 0

        projected = current.clone()
        cycles = torch.zeros(())
        while projected < self.discard_tpm:
            # degradation accelerates as polar compounds build up
            projected = projected + rate * (1.0 + 0.02 * cycles)
            cycles = cycles + 1
        return torch.tensor(status), cycles, rate


def model():
    torch.manual_seed(624)
    return OilLifeMonitor().eval()


def _log(drops, temp_c, tpm_end, seed, spike=None):
    g = torch.Generator().manual_seed(seed)
    temp = temp_c + 2.0 * torch.rand(drops, generator=g)
    if spike is not None:
        temp[drops // 2] = spike
    tpm = torch.linspace(max(tpm_end - 4.0, 3.0), tpm_end, drops)
    load = 0.5 + 0.5 * torch.rand(drops, generator=g)
    return (torch.stack([temp, tpm, load], dim=1),)


def example_inputs():
    return _log(30, 175.0, 8.0, 1)


def dynamic_shapes():
    return ({0: Dim("drops", min=2, max=256)},)


def verify_inputs():
    return [
        example_inputs(),                      # fresh oil, normal temp: status 0, ~30 projected cycles
        _log(20, 176.0, 19.5, 2),              # TPM past filter level: status 1 via first elif operand
        _log(12, 176.0, 12.0, 3, spike=196.0), # fresh oil but overheated: status 1 via `or overheated`
        _log(40, 176.0, 20.0, 4, spike=197.0), # overheated and past filter level: status 2 via the `and`
        _log(8, 176.0, 25.5, 5),               # past discard limit: status 2, projection loop runs 0 times
        _log(2, 178.0, 23.85, 6),              # 2 drops, just under the limit: projection loop runs once
    ]
