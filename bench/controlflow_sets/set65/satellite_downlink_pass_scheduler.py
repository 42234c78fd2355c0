"""Earth-observation satellite: downlink scheduling over upcoming ground-station passes.

Each pass has a duration (s), a maximum elevation (deg) and a predicted rain attenuation (dB).
The link margin selects a modulation/coding rate (MB/s); low passes are skipped.  During a pass
files are sent in priority order; a file that does not fit in the remaining contact time is sent
partially and resumed on the next pass.  Once the queue is empty the remaining passes are left
unused.  On-board only the `max_queue` most important files are considered for a plan.
"""
import torch
import torch.nn as nn
from torch.export import Dim


def link_rate(elevation, rain_db):
    margin = 0.25 * elevation - rain_db - 3.0
    if margin > 12.0:
        return torch.tensor(4.0)      # 32APSK 9/10
    elif margin > 6.0:
        return torch.tensor(2.0)      # 8PSK 3/4
    elif margin > 2.0:
        return torch.tensor(0.8)      # QPSK 1/2
    return torch.tensor(0.0)          # link not closed


class DownlinkScheduler(nn.Module):
    def __init__(self, min_elevation=10.0, min_chunk=5.0, max_queue=16):
        super().__init__()
        self.min_elevation = min_elevation
        self.min_chunk = min_chunk
        self.max_queue = max_queue

    def forward(self, passes, files):
        if files.shape[0] > self.max_queue:
            keep = torch.topk(files[:, 1], self.max_queue).indices
            files = files[keep]
        sizes = files[:, 0].clone()
        priority = files[:, 1]
        done = torch.zeros(sizes.shape[0], dtype=torch.bool)
        delivered = []
        for p in range(passes.shape[0]):
            if passes[p, 1] < self.min_elevation:
                delivered.append(torch.zeros(()))
                continue
            capacity = link_rate(passes[p, 1], passes[p, 2]) * passes[p, 0]
            sent = torch.zeros(())
            while capacity > self.min_chunk and not done.all():
                idx = torch.argmax(priority.masked_fill(done, float("-inf")))
                if sizes[idx] <= capacity:
                    capacity = capacity - sizes[idx]
                    sent = sent + sizes[idx]
                    sizes[idx] = 0.0
                    done[idx] = True
                else:
                    sizes[idx] = sizes[idx] - capacity
                    sent = sent + capacity
                    capacity = torch.zeros(())
            delivered.append(sent)
            if done.all():
                break
        return torch.stack(delivered), sizes


def model():
    return DownlinkScheduler().eval()


def _files(n, seed, lo=200.0, hi=3000.0):
    g = torch.Generator().manual_seed(seed)
    sizes = lo + (hi - lo) * torch.rand(n, generator=g)
    prio = torch.randperm(n, generator=g).float() + 1.0
    return torch.stack([sizes, prio], dim=1)


def example_inputs():
    passes = torch.tensor([[420.0, 45.0, 1.0], [300.0, 8.0, 0.5], [540.0, 80.0, 0.5], [360.0, 25.0, 0.5]])
    return (passes, _files(10, 0))


def dynamic_shapes():
    return ({0: Dim("passes", min=2, max=64)}, {0: Dim("files", min=2, max=256)})


def verify_inputs():
    return [
        example_inputs(),   # low pass skipped; 3 modcods used; files split across passes; queue never empties
        # small queue, good passes: queue empties during pass 1 -> break, later passes unused
        (torch.tensor([[600.0, 80.0, 0.5], [600.0, 60.0, 0.5], [600.0, 50.0, 0.5]]), _files(4, 1, 100.0, 800.0)),
        # 40 files > max_queue -> keep top 16; heavy rain pass with no link closure (rate 0)
        (torch.tensor([[500.0, 30.0, 9.0], [480.0, 85.0, 0.0], [200.0, 15.0, 0.2]]), _files(40, 2)),
        # only low passes: all skipped
        (torch.tensor([[300.0, 5.0, 0.0], [250.0, 9.0, 0.0]]), _files(3, 3)),
    ]
