"""Single-counter service queue (pharmacy / help desk) simulated customer by customer.

A small network predicts each customer's service time from job features.  Customers
arrive with the given inter-arrival gaps; if the counter is busy they wait (Lindley
recursion), customers facing a wait above their patience walk away (balk), and after
too many walk-aways the queue is closed for the day.  Returns the waits of the
served customers (data-dependent count), the counter's idle time and the counts.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class QueueSimulator(nn.Module):
    def __init__(self, patience=3.0, max_balk=2):
        super().__init__()
        self.service_net = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))
        self.patience = patience
        self.max_balk = max_balk

    def forward(self, interarrival, job_feats):
        service = 0.5 + F.softplus(self.service_net(job_feats)).squeeze(-1) * job_feats[:, 0].abs()
        clock = torch.zeros(())
        free_at = torch.zeros(())
        idle = torch.zeros(())
        balked = 0
        waits = []
        for i in range(interarrival.shape[0]):
            clock = clock + interarrival[i]
            if free_at > clock:
                w = free_at - clock
                if w > self.patience:
                    balked += 1
                    if balked > self.max_balk:
                        # too many walk-aways: close the queue
                        break
                    continue
            else:
                idle = idle + (clock - free_at)
                w = torch.zeros(())
            free_at = clock + w + service[i]
            waits.append(w)
        return torch.stack(waits), idle, torch.tensor([len(waits), balked])


def model():
    torch.manual_seed(0)
    return QueueSimulator().eval()


def _day(g, n, gap, work):
    interarrival = gap * (0.5 + torch.rand(n, generator=g))
    feats = torch.randn(n, 4, generator=g) * 0.5
    feats[:, 0] = work * (0.5 + torch.rand(n, generator=g))
    return interarrival, feats


def example_inputs():
    g = torch.Generator().manual_seed(1)
    return _day(g, 12, 2.0, 1.0)


def dynamic_shapes():
    n = torch.export.Dim("customers", min=2, max=512)
    return ({0: n}, {0: n})


def verify_inputs():
    g = torch.Generator().manual_seed(2)
    return [
        _day(g, 6, 5.0, 0.5),     # quiet: nobody waits
        _day(g, 15, 1.0, 2.5),    # busy: some walk away
        _day(g, 30, 0.3, 4.0),    # overloaded: queue closes
        _day(g, 10, 1.2, 1.5),
    ]
