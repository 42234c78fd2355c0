"""Deficit round robin (DRR) egress scheduler for a router port.

pkt_sizes[q, k] is the size in bytes of the k-th packet waiting in queue q
(0 = empty slot, packets are left-aligned), weights[q] the configured share.
The shares are nudged by a small learned backlog model, then DRR serves the
queues round by round on a 10 Mbit/s link: each backlogged queue earns
quantum * weight bytes of credit per round, sends head packets while the
credit lasts, and drops packets above the MTU.  Idle queues lose their
credit.  Scheduling stops when everything is sent or after max_rounds.
Returns (queue id of each transmitted packet in order, finish time in ms per
packet (0 = not sent), [rounds, dropped packets]).
"""
import torch
import torch.nn as nn


class BacklogWeighting(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 1)

    def forward(self, pkt_sizes, lengths, weights):
        feats = torch.stack([pkt_sizes.sum(dim=1) / 1.0e4, lengths / 64.0, weights], dim=1)
        return weights * (1.0 + 0.25 * torch.tanh(self.lin(feats).squeeze(-1)))


class DeficitRoundRobin(nn.Module):
    def __init__(self):
        super().__init__()
        self.weighting = BacklogWeighting()
        self.quantum = 500.0
        self.mtu = 1500.0
        self.bytes_per_ms = 1250.0
        self.max_rounds = 120

    def forward(self, pkt_sizes, weights):
        q = pkt_sizes.shape[0]
        lengths = (pkt_sizes > 0).sum(dim=1)
        share = self.weighting(pkt_sizes, lengths.float(), weights)

        head = torch.zeros(q, dtype=torch.long)
        deficit = torch.zeros(q)
        finish = torch.zeros_like(pkt_sizes)
        clock = torch.zeros(())
        order, dropped, rounds = [], 0, 0
        while (head < lengths).any() and rounds < self.max_rounds:
            rounds += 1
            for i in range(q):
                if head[i] >= lengths[i]:
                    deficit[i] = 0.0          # idle queues do not bank credit
                    continue
                deficit[i] += self.quantum * share[i]
                while head[i] < lengths[i]:
                    size = pkt_sizes[i, head[i]]
                    if size > self.mtu:
                        dropped += 1           # oversize frame: drop, no credit used
                        head[i] += 1
                        continue
                    if size > deficit[i]:
                        break                  # wait for the next round
                    deficit[i] -= size
                    clock = clock + size / self.bytes_per_ms
                    finish[i, head[i]] = clock
                    order.append(i)
                    head[i] += 1
        return (torch.tensor(order, dtype=torch.long), finish,
                torch.tensor([rounds, dropped], dtype=torch.long))


def model():
    torch.manual_seed(5318)
    return DeficitRoundRobin().eval()


def example_inputs():
    return verify_inputs()[0]


def dynamic_shapes():
    queues = torch.export.Dim("queues", min=2, max=8)
    slots = torch.export.Dim("slots", min=2, max=64)
    return ({0: queues, 1: slots}, {0: queues})


def verify_inputs():
    def backlog(q, p, fill, seed, jumbo=()):
        g = torch.Generator().manual_seed(seed)
        sizes = 64.0 + torch.floor(1436.0 * torch.rand(q, p, generator=g))
        for i, k in enumerate(fill):
            sizes[i, k:] = 0.0
        for i, k in jumbo:
            sizes[i, k] = 9000.0
        return sizes

    return [
        # example: 4 queues x 16 slots, uneven backlogs (one queue empty ->
        # idle continue), a jumbo frame dropped; queues drain at different
        # rounds; everything is sent
        (backlog(4, 16, [16, 9, 0, 12], seed=1, jumbo=[(1, 3)]),
         torch.tensor([1.0, 2.0, 1.0, 0.5])),
        # 2 queues x 2 slots (min): tiny packets, drained in the first round
        (torch.tensor([[64.0, 80.0], [100.0, 0.0]]), torch.tensor([1.0, 1.0])),
        # 8 queues x 64 slots (max), low-priority shares: stops at max_rounds
        # with packets still queued
        (backlog(8, 64, [64] * 8, seed=2), torch.full((8,), 0.1)),
    ]
