"""Slotted CSMA/CD (classic shared Ethernet) with binary exponential backoff.

Each station has one frame arriving at a given slot.  In every slot the
stations ready to send either succeed (exactly one), or collide and draw a
backoff from their pre-drawn uniforms.  Frames are dropped after too many
attempts.  A small net maps the resulting per-station delays to a QoS score.
"""
import torch
import torch.nn as nn


class BackoffSimulator(nn.Module):
    def __init__(self, max_attempts=16, backoff_limit=10, max_slots=250):
        super().__init__()
        self.max_attempts = max_attempts
        self.backoff_limit = backoff_limit
        self.max_slots = max_slots
        self.qos = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))

    def draw_backoff(self, uniforms, station, attempt):
        k = min(attempt, self.backoff_limit)
        col = min(attempt - 1, uniforms.shape[1] - 1)
        return torch.floor(uniforms[station, col] * (2 ** k))

    def forward(self, arrival_slot, uniforms):
        n = arrival_slot.shape[0]
        ready_at = arrival_slot.clone()
        attempts = [0] * n
        done_at = torch.full((n,), -1.0)
        dropped = torch.zeros(n)
        pending = torch.ones(n, dtype=torch.bool)
        slot = torch.zeros(())
        while pending.any() and slot < self.max_slots:
            senders = pending & (ready_at <= slot)
            count = int(senders.sum().item())
            if count == 1:
                idx = int(senders.int().argmax().item())
                done_at[idx] = slot
                pending[idx] = False
            elif count > 1:
                for s in range(n):
                    if not senders[s]:
                        continue
                    attempts[s] += 1
                    if attempts[s] >= self.max_attempts:
                        dropped[s] = 1.0
                        pending[s] = False
                        continue
                    ready_at[s] = slot + 1 + self.draw_backoff(uniforms, s, attempts[s])
            slot = slot + 1
        delay = torch.where(done_at >= 0, done_at - arrival_slot, torch.full_like(done_at, float(self.max_slots)))
        feats = torch.stack([delay.mean(), delay.max(), dropped.sum()]).unsqueeze(0) / 10.0
        return done_at, dropped, self.qos(feats).squeeze()


def model():
    torch.manual_seed(5112)
    return BackoffSimulator().eval()


def _uniforms(n, k, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.rand(n, k, generator=g)


def example_inputs():
    arrivals = torch.tensor([0.0, 0.0, 0.0, 3.0, 9.0, 9.0])
    return (arrivals, _uniforms(6, 8, 1))


def dynamic_shapes():
    s = torch.export.Dim("stations", min=2, max=32)
    return ({0: s}, {0: s, 1: torch.export.Dim("draws", min=2, max=16)})


def verify_inputs():
    return [
        # example: 3-way collision at slot 0 then backoffs, lone senders succeed, idle slots
        example_inputs(),
        # min stations/draws: staggered arrivals, no collisions at all
        (torch.tensor([0.0, 2.0]), _uniforms(2, 2, 2)),
        # max stations / max draws: everybody at slot 0, long contention
        (torch.zeros(32), _uniforms(32, 16, 3)),
        # two stations whose backoff draws are always 0 -> collide until dropped
        (torch.tensor([1.0, 1.0]), torch.zeros(2, 4)),
        # 32 stations all with zero draws keep colliding -> all dropped before the slot limit
        (torch.zeros(32), torch.zeros(32, 16)),
        # a frame that arrives after the simulation horizon -> loop stops on the slot limit
        (torch.tensor([0.0, 400.0]), _uniforms(2, 4, 4)),
    ]
